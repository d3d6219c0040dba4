#!/bin/sh
echo build
