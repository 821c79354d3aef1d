# Equal totals: cycles first, names without a leading underscore first, then more calls, then the name.
sym main
sym _u 3
sym v 3
sym w 3
sym x 3
arc main _u 1
arc main v 1
arc main w 2
arc main x 2
----
total 12.0000
[1] main cycle=0 topo=5 calls=0+0 self=0.0000 child=12.0000 print=1
[2] w cycle=0 topo=2 calls=2+0 self=3.0000 child=0.0000 print=1
[3] x cycle=0 topo=1 calls=2+0 self=3.0000 child=0.0000 print=1
[4] v cycle=0 topo=3 calls=1+0 self=3.0000 child=0.0000 print=1
[5] _u cycle=0 topo=4 calls=1+0 self=3.0000 child=0.0000 print=1
arc main -> _u count=1 time=3.0000 child=0.0000
arc main -> v count=1 time=3.0000 child=0.0000
arc main -> w count=2 time=3.0000 child=0.0000
arc main -> x count=2 time=3.0000 child=0.0000
