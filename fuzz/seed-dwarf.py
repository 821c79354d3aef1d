#!/usr/bin/env python3
# fuzz/seed-dwarf.py PROG OUT: PROG's DWARF sections as one fuzz-dwarf input (see fuzz/fuzz-dwarf.c).
import os, subprocess, sys, tempfile
names = ['.debug_info', '.debug_abbrev', '.debug_line', '.debug_str', '.debug_line_str',
         '.debug_ranges', '.debug_rnglists']
out = bytearray([0])
with tempfile.TemporaryDirectory() as d:
    for n in names:
        f = os.path.join(d, 'sec')
        r = subprocess.run(['objcopy', '-O', 'binary', '--only-section=' + n, sys.argv[1], f],
                           capture_output=True)
        b = open(f, 'rb').read() if r.returncode == 0 and os.path.exists(f) else b''
        b = b[:65535]
        out += len(b).to_bytes(2, 'little') + b
        if os.path.exists(f):
            os.unlink(f)
open(sys.argv[2], 'wb').write(out)
