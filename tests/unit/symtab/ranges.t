# Entries with their own end (symspec ranges): gaps are not found, and an entry ending before it starts is dropped.
text ffff
sym 1000 a e=101f
sym 1040 b e=107f
sym 1100 bad e=10ff
sym 1200 c e=12ff
lookup 1010
lookup 1020
lookup 1050
lookup 1100
lookup 1200
lookup 1300
----
1000-101f a
1040-107f b
1200-12ff c
after 1200
lookup 1010: a
lookup 1020: -
lookup 1050: b
lookup 1100: -
lookup 1200: c
lookup 1300: -
