# Mutual recursion: the cycle sums its members; calls inside are not counted in.
sym main
sym even 6
sym odd 4
sym burn 20
arc main even 2
arc even odd 10
arc odd even 8
arc even burn 10
arc odd burn 10
----
total 30.0000
[1] <cycle 1> members even odd calls=2+18 self=10.0000 child=20.0000 print=1
[2] main cycle=0 topo=3 calls=0+0 self=0.0000 child=30.0000 print=1
[3] burn cycle=0 topo=1 calls=20+0 self=20.0000 child=0.0000 print=1
[4] even cycle=1 topo=2 calls=10+0 self=6.0000 child=10.0000 print=1
[5] odd cycle=1 topo=2 calls=10+0 self=4.0000 child=10.0000 print=1
arc main -> even count=2 time=10.0000 child=20.0000
arc even -> odd count=10 time=0.0000 child=0.0000
arc odd -> even count=8 time=0.0000 child=0.0000
arc even -> burn count=10 time=10.0000 child=0.0000
arc odd -> burn count=10 time=10.0000 child=0.0000
