#!/bin/sh
echo release "$@"
