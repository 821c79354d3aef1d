# Each symbol ends where the next begins; the last at the end of the text, even if it starts after it (then lookups never find it).
text 10ff
sym 1000 a
sym 1040 b
sym 1200 late
lookup 1000
lookup 103f
lookup 1040
lookup 10ff
lookup 1100
lookup 1200
lookup fff
----
1000-103f a
1040-11ff b
1200-10ff late
lookup 1000: a
lookup 103f: a
lookup 1040: b
lookup 10ff: b
lookup 1100: b
lookup 1200: -
lookup fff: -
