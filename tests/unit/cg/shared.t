# A callee's time is split among its callers by call counts.
sym main
sym a 10
sym b 30
arc main a 2
arc a b 4
arc main b 1
----
total 40.0000
[1] main cycle=0 topo=3 calls=0+0 self=0.0000 child=40.0000 print=1
[2] a cycle=0 topo=2 calls=2+0 self=10.0000 child=24.0000 print=1
[3] b cycle=0 topo=1 calls=5+0 self=30.0000 child=0.0000 print=1
arc main -> a count=2 time=10.0000 child=24.0000
arc a -> b count=4 time=24.0000 child=0.0000
arc main -> b count=1 time=6.0000 child=0.0000
