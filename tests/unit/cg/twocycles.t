# Two cycles of equal time keep their numbers' order; cycle numbers follow the address of the DFS head.
sym main
sym p1 2
sym p2 2
sym q1 2
sym q2 2
arc main q1 1
arc q1 q2 1
arc q2 q1 1
arc main p1 1
arc p1 p2 1
arc p2 p1 1
----
total 8.0000
[1] main cycle=0 topo=3 calls=0+0 self=0.0000 child=8.0000 print=1
[2] <cycle 1> members p1 p2 calls=1+2 self=4.0000 child=0.0000 print=1
[3] <cycle 2> members q1 q2 calls=1+2 self=4.0000 child=0.0000 print=1
[4] p1 cycle=1 topo=1 calls=2+0 self=2.0000 child=0.0000 print=1
[5] q1 cycle=2 topo=2 calls=2+0 self=2.0000 child=0.0000 print=1
[6] p2 cycle=1 topo=1 calls=1+0 self=2.0000 child=0.0000 print=1
[7] q2 cycle=2 topo=2 calls=1+0 self=2.0000 child=0.0000 print=1
arc main -> q1 count=1 time=4.0000 child=0.0000
arc q1 -> q2 count=1 time=0.0000 child=0.0000
arc q2 -> q1 count=1 time=0.0000 child=0.0000
arc main -> p1 count=1 time=4.0000 child=0.0000
arc p1 -> p2 count=1 time=0.0000 child=0.0000
arc p2 -> p1 count=1 time=0.0000 child=0.0000
