# -F top: only time below top counts; other roots get no fract and no time.
sym main 1
sym top 2
sym leaf 5
sym lone 7
arc main top 1
arc top leaf 2
arc main lone 1
spec incl_time top
spec incl_graph top
----
total 7.0000
[1] top cycle=0 topo=3 calls=1+0 self=2.0000 child=5.0000 print=1
[2] leaf cycle=0 topo=2 calls=2+0 self=5.0000 child=0.0000 print=1
[3] lone cycle=0 topo=1 calls=1+0 self=0.0000 child=0.0000 print=0
[4] main cycle=0 topo=4 calls=0+0 self=0.0000 child=0.0000 print=0
arc main -> top count=1 time=0.0000 child=0.0000
arc top -> leaf count=2 time=5.0000 child=0.0000
arc main -> lone count=1 time=0.0000 child=0.0000
