# -E mid: mid loses its entry and time, but its only callee becomes a root and keeps its time (gprof's rule).
sym main
sym mid 2
sym leaf 10
sym other 4
arc main mid 1
arc mid leaf 3
arc main other 1
spec excl_time mid
spec excl_graph mid
----
total 14.0000
[1] leaf cycle=0 topo=2 calls=3+0 self=10.0000 child=0.0000 print=1
[2] other cycle=0 topo=1 calls=1+0 self=4.0000 child=0.0000 print=1
[3] main cycle=0 topo=4 calls=0+0 self=0.0000 child=4.0000 print=1
[4] mid cycle=0 topo=3 calls=1+0 self=0.0000 child=0.0000 print=0
arc main -> mid count=1 time=0.0000 child=0.0000
arc mid -> leaf count=3 time=0.0000 child=0.0000
arc main -> other count=1 time=4.0000 child=0.0000
