# One symbol per address: global over static (even untyped over a function), then function over untyped, then 'x' over '_x' over '__x', then the first.
text 1fff
sym 1000 st s
sym 1000 gl n
sym 1100 fn s
sym 1100 nf sn
sym 1200 _x s
sym 1200 y s
sym 1300 __a
sym 1300 _b
sym 1400 p
sym 1400 q
sym 1500 r
sym 1500 w
----
1000-10ff gl notfunc
1100-11ff fn static
1200-12ff y static
1300-13ff _b
1400-14ff p
1500-1fff r
after 1300
