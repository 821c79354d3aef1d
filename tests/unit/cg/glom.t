# A back edge into an open cycle: d and c are glommed onto b, then all onto a, in that order.
sym main
sym a 1
sym b 2
sym c 3
sym d 4
arc main a 1
arc a b 5
arc b c 5
arc c a 4
arc c d 6
arc d b 3
----
total 10.0000
[1] <cycle 1> members a b c d calls=1+23 self=10.0000 child=0.0000 print=1
[2] main cycle=0 topo=2 calls=0+0 self=0.0000 child=10.0000 print=1
[3] d cycle=1 topo=1 calls=6+0 self=4.0000 child=0.0000 print=1
[4] c cycle=1 topo=1 calls=5+0 self=3.0000 child=0.0000 print=1
[5] b cycle=1 topo=1 calls=8+0 self=2.0000 child=0.0000 print=1
[6] a cycle=1 topo=1 calls=5+0 self=1.0000 child=0.0000 print=1
arc main -> a count=1 time=10.0000 child=0.0000
arc a -> b count=5 time=0.0000 child=0.0000
arc b -> c count=5 time=0.0000 child=0.0000
arc c -> a count=4 time=0.0000 child=0.0000
arc c -> d count=6 time=0.0000 child=0.0000
arc d -> b count=3 time=0.0000 child=0.0000
