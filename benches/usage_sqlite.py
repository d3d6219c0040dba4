"""The SQLite alternative to the usage ledger's JSON lines, measured for
docs/decisions.md ("The usage ledger: JSON lines"). Standard library only
(Python's sqlite3 is the same C engine rusqlite bundles; the Python
overhead only makes SQLite look slower on inserts, so insert figures are
an upper bound and the aggregate query runs entirely in C).

    python3 benches/usage_sqlite.py [DIR]

1. Insert latency: one record (a row and its slugs) per transaction, as a
   server records one answer; WAL with synchronous=NORMAL, and SQLite's
   default (rollback journal, synchronous=FULL).
2. Four processes inserting 250 records each at once (busy_timeout 5 s):
   records kept, wall time.
3. The `jp-kb usage` query over 1,000,000 records (about 2,000,000 slug
   rows): loads, distinct sessions, last load and tokens per subject; the
   file's size.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS record (id INTEGER PRIMARY KEY, t INTEGER, kind TEXT, topic TEXT,
    session TEXT, client TEXT, version TEXT, tokens INTEGER);
CREATE TABLE IF NOT EXISTS served (record INTEGER, slug TEXT);
"""


def connect(path: Path, wal: bool) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, timeout=5)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
    db.executescript(SCHEMA)
    return db


def insert(db: sqlite3.Connection, t: int, session: str, slugs: list[str]) -> None:
    db.execute("BEGIN IMMEDIATE")
    cur = db.execute(
        "INSERT INTO record (t, kind, topic, session, client, version, tokens) VALUES (?,?,?,?,?,?,?)",
        (t, "learn", "big", session, "claude-code", "2.0.31", 80),
    )
    db.executemany("INSERT INTO served VALUES (?,?)", [(cur.lastrowid, s) for s in slugs])
    db.execute("COMMIT")


def latency(path: Path, wal: bool, n: int = 2000) -> float:
    db = connect(path, wal)
    times = []
    for i in range(n):
        start = time.perf_counter()
        insert(db, i, "s", ["area-03/subject-003", "area-00/subject-040"])
        times.append(time.perf_counter() - start)
    db.close()
    return statistics.median(times) * 1e6


def writer(args: tuple[str, int]) -> None:
    path, k = args
    db = connect(Path(path), True)
    for i in range(250):
        insert(db, i, f"s{k}", ["area-03/subject-003"])
    db.close()


def concurrent(path: Path) -> tuple[int, float]:
    connect(path, True).close()
    start = time.perf_counter()
    with multiprocessing.Pool(4) as pool:
        pool.map(writer, [(str(path), k) for k in range(4)])
    wall = time.perf_counter() - start
    db = sqlite3.connect(path)
    (n,) = db.execute("SELECT count(*) FROM record").fetchone()
    return n, wall


def aggregate(path: Path) -> tuple[float, int]:
    db = connect(path, True)
    rng = random.Random(7)
    db.execute("BEGIN")
    for r in range(1_000_000):
        slugs = []
        for _ in range(1 + rng.randrange(3)):
            u = rng.randrange(1000)
            i = u * u // 1000 * 500 // 1000
            slugs.append(f"area-{i % 20:02}/subject-{i:03}")
        cur = db.execute(
            "INSERT INTO record (t, kind, topic, session, client, version, tokens) VALUES (?,?,?,?,?,?,?)",
            (r, "learn", "big", f"{r // 500:016x}", "claude-code", "2.0.31", 40 * len(slugs)),
        )
        db.executemany("INSERT INTO served VALUES (?,?)", [(cur.lastrowid, s) for s in slugs])
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    times = []
    for _ in range(3):
        start = time.perf_counter()
        db.execute(
            """SELECT r.topic, s.slug, count(*), count(DISTINCT r.session), max(r.t), sum(r.tokens)
               FROM served s JOIN record r ON r.id = s.record GROUP BY r.topic, s.slug"""
        ).fetchall()
        times.append(time.perf_counter() - start)
    db.close()
    return statistics.median(times) * 1e3, path.stat().st_size


def main() -> None:
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="usage-sqlite-"))
    base.mkdir(parents=True, exist_ok=True)
    for f in base.glob("*.db*"):
        f.unlink()
    print(f"sqlite {sqlite3.sqlite_version}")
    print(f"insert, WAL + synchronous=NORMAL: {latency(base / 'wal.db', True):.1f} µs median")
    print(f"insert, default journal (FULL):  {latency(base / 'default.db', False):.1f} µs median")
    n, wall = concurrent(base / "concurrent.db")
    print(f"4 processes x 250 inserts: {n} records kept, {wall * 1e3:.0f} ms")
    ms, size = aggregate(base / "million.db")
    print(f"usage query over 1,000,000 records: {ms:.0f} ms, file {size / 1e6:.0f} MB")
    print("files beside the database:", sorted(p.name for p in base.iterdir()))


if __name__ == "__main__":
    main()
