# When duplicates are removed, gprof's read of sym[len] finds the entry that sorted there.
text ffff
sym 1000 a
sym 1000 b
sym 1010 c
sym 1020 d
----
1000-100f a
1010-101f c
1020-ffff d
after 1020
