#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# png-colors.py FILE: what a screenshot of a d3-flame-graph page (blue-green
# scheme) shows, as "root N frames M": N pixels of the root frame's red
# (rgb(217,75,75), drawn at 0.8 opacity on white: 225,111,111), and M of
# the green of the other frames.  A page that drew nothing, or printed its
# script as text, has neither.  8-bit RGB or RGBA PNGs, not interlaced
# (what Chromium writes).
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def pixels(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError("not 8-bit RGB(A), or interlaced")
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xff
            elif kind == 2:
                line[i] = (line[i] + b) & 0xff
            elif kind == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 0xff
            elif kind == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 0xff
        for x in range(0, stride, bpp):
            yield line[x], line[x + 1], line[x + 2]
        prev = line


def main():
    root = frames = 0
    for r, g, b in pixels(sys.argv[1]):
        if r - g >= 80 and g == b:
            root += 1
        elif g >= r and g - b >= 20:
            frames += 1
    print("root {} frames {}".format(root, frames))


main()
