#!/usr/bin/env python3
"""An independent oracle for swcred's PropertyListReader (Tests/SWCredCoreTests).

Writes COUNT random property lists in each format with Python's plistlib into OUT_DIR
(`NNNN.xml.plist`, `NNNN.binary.plist`) and, beside each, `NNNN.<fmt>.json`: a description of
the tree plistlib itself reads back from those bytes, which the Swift test compares with what
swcred reads.

Description: {"s": text} {"b": bool} {"i": "decimal"} {"r": "16 hex digits of the IEEE bits"}
{"d": "whole seconds since 2001-01-01"} {"data": "hex"} {"a": [...]} {"dict": [[key, value], ...]}
{"uid": "decimal"}.

usage: plist_oracle.py OUT_DIR COUNT SEED
"""
import datetime
import json
import math
import os
import plistlib
import random
import struct
import sys

REFERENCE = datetime.datetime(2001, 1, 1)

# Characters from every UTF-8 length, markup characters, and non-BMP ones (surrogate pairs in
# UTF-16), so that both formats' string paths are exercised.
POOLS = [
    "abcdefghijklmnopqrstuvwxyz0123456789.-_:/ ",
    "<>&\"']]>;#",
    "éüßçñ€£©ÆØ",
    "中文日本語한국어",
    "\u0301\u200b\ufeff\ufffd",
    "😀🎉𝄞𐍈🀄",
]
CONTROL = "\x00\x01\x08\x0b\x0c\x1f\x7f"  # plistlib writes these in binary plists only


def text(rng, binary):
    length = rng.choice([0, 1, 2, 5, 12, 40])
    pools = POOLS + ([CONTROL] if binary else []) + ["\t\n\r"]
    return "".join(rng.choice(rng.choice(pools)) for _ in range(length))


def integer(rng):
    return rng.choice([
        0, 1, -1, 255, 256, 65535, 65536, 2**31, 2**32, 2**63 - 1, -(2**63), 2**63, 2**64 - 1,
        rng.randint(-(2**63), 2**64 - 1), rng.randint(-1000, 1000),
    ])


def real(rng):
    return rng.choice([
        0.0, -0.0, 1.5, -2.25, 1e300, -1e-300, 5e-324, math.inf, -math.inf,
        rng.uniform(-1e6, 1e6), rng.random() * 10 ** rng.randint(-30, 30),
    ])


def value(rng, depth, binary):
    kinds = ["s", "b", "i", "r", "d", "data"] + (["uid"] if binary else [])
    if depth < 6:
        kinds += ["a", "dict"] * 2
    kind = rng.choice(kinds)
    if kind == "s":
        return text(rng, binary)
    if kind == "b":
        return rng.random() < 0.5
    if kind == "i":
        return integer(rng)
    if kind == "r":
        return real(rng)
    if kind == "d":
        return REFERENCE + datetime.timedelta(seconds=rng.randint(-2_000_000_000, 2_000_000_000))
    if kind == "data":
        return bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 2, 3, 4, 57, 600])))
    if kind == "uid":
        return plistlib.UID(rng.choice([0, 1, 255, 256, 2**32, 2**64 - 1]))
    if kind == "a":
        return [value(rng, depth + 1, binary) for _ in range(rng.randint(0, 6))]
    result = {}
    for _ in range(rng.randint(0, 6)):
        result[key(rng, binary)] = value(rng, depth + 1, binary)
    return result


def key(rng, binary):
    # plistlib writes CR and CR LF in XML as LF: two keys that differ only there would repeat.
    k = text(rng, binary)
    return k if binary else k.replace("\r\n", "\n").replace("\r", "\n")


def describe(v):
    if isinstance(v, bool):
        return {"b": v}
    if isinstance(v, plistlib.UID):
        return {"uid": str(v.data)}
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"r": struct.pack(">d", v).hex()}
    if isinstance(v, str):
        return {"s": v}
    if isinstance(v, bytes):
        return {"data": v.hex()}
    if isinstance(v, datetime.datetime):
        seconds = (v - REFERENCE).total_seconds()
        assert seconds == int(seconds)
        return {"d": str(int(seconds))}
    if isinstance(v, list):
        return {"a": [describe(e) for e in v]}
    if isinstance(v, dict):
        return {"dict": [[k, describe(e)] for k, e in v.items()]}
    raise TypeError(type(v))


def main():
    out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    for n in range(count):
        for name, fmt in (("xml", plistlib.FMT_XML), ("binary", plistlib.FMT_BINARY)):
            binary = fmt == plistlib.FMT_BINARY
            # A dictionary or an array at the top, as real plists have, sometimes a scalar.
            root = value(rng, 0, binary) if n % 10 == 0 else {key(rng, binary): value(rng, 1, binary) for _ in range(4)}
            data = plistlib.dumps(root, fmt=fmt, sort_keys=rng.random() < 0.5)
            with open(os.path.join(out, f"{n:04d}.{name}.plist"), "wb") as f:
                f.write(data)
            with open(os.path.join(out, f"{n:04d}.{name}.json"), "w") as f:
                json.dump(describe(plistlib.loads(data)), f)


if __name__ == "__main__":
    main()
