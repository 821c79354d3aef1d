#!/usr/bin/env python3
# tests/diff/window.py IN OUT: the GNU gmon.out IN rewritten as OUT: its histogram records,
# its arc records repeated until the file passes 17 MiB, then the histogram records again.
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, hist, arcs = 20, [], []
while off < len(d):
    tag = d[off]
    if tag == 0:
        n = 1 + 16 + 4 + 4 + 16 + 2 * struct.unpack('<I', d[off + 17:off + 21])[0]
        hist.append(d[off:off + n])
    elif tag == 1:
        n = 21
        arcs.append(d[off:off + n])
    else:
        sys.exit('unexpected tag %d' % tag)
    off += n
body = b''.join(arcs)
with open(sys.argv[2], 'wb') as f:
    f.write(d[:20] + b''.join(hist) + body * ((17 << 20) // len(body) + 1) + b''.join(hist))
