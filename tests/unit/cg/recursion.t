# A self arc: its calls show as +N and carry no time; ties order by calls.
sym main
sym fact 12
sym leaf 8
arc main fact 2
arc fact fact 10
arc fact leaf 4
----
total 20.0000
[1] fact cycle=0 topo=2 calls=2+10 self=12.0000 child=8.0000 print=1
[2] main cycle=0 topo=3 calls=0+0 self=0.0000 child=20.0000 print=1
[3] leaf cycle=0 topo=1 calls=4+0 self=8.0000 child=0.0000 print=1
arc main -> fact count=2 time=12.0000 child=8.0000
arc fact -> fact count=10 time=0.0000 child=0.0000
arc fact -> leaf count=4 time=8.0000 child=0.0000
