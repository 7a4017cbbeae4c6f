#!/usr/bin/env python3
"""png_ok.py FILE W H - exit 0 when FILE is a valid PNG of W x H pixels
that is not blank: its IDAT inflates, and the image holds more than a
handful of distinct colours with a real share of non-background pixels."""
import struct
import sys
import zlib


def main(path, want_w, want_h):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "not a PNG"
    pos, idat, w, h, bpp = 8, b"", None, None, 3
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            return "bad CRC in chunk %r" % kind
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                return "unexpected colour type %d/%d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if (w, h) != (want_w, want_h):
        return "size %sx%s, expected %dx%d" % (w, h, want_w, want_h)
    raw = zlib.decompress(idat)
    stride = w * bpp + 1
    prev = bytearray(w * bpp)
    colours, ink = set(), 0
    for y in range(h):
        f, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, len(line), bpp * 4):
            px = bytes(line[x:x + 3])
            colours.add(px)
            ink += px != b"\xff\xff\xff"
        prev = line
    if len(colours) < 8 or ink < (w * h / 4) * 0.01:
        return "blank: %d colours, %d sampled non-white pixels" % (len(colours), ink)
    return None


why = main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
if why:
    print("%s: %s" % (sys.argv[1], why))
    sys.exit(1)
