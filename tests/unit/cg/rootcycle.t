# A cycle nobody outside calls: no entry and no self time of its own; members become roots.
sym main 1
sym ra 5
sym rb 3
sym leaf 2
arc ra rb 4
arc rb ra 4
arc rb leaf 2
----
total 11.0000
[1] ra cycle=1 topo=3 calls=4+0 self=5.0000 child=0.0000 print=1
[2] rb cycle=1 topo=3 calls=4+0 self=3.0000 child=2.0000 print=1
[3] <cycle 1> members ra rb calls=0+8 self=0.0000 child=2.0000 print=0
[4] leaf cycle=0 topo=2 calls=2+0 self=2.0000 child=0.0000 print=1
[5] main cycle=0 topo=1 calls=0+0 self=1.0000 child=0.0000 print=1
arc ra -> rb count=4 time=0.0000 child=0.0000
arc rb -> ra count=4 time=0.0000 child=0.0000
arc rb -> leaf count=2 time=2.0000 child=0.0000
