# callees: the stacks through eval (10), from its first frame on, recursion through apply collapsed: heavy 99 under apply
view 10 0 indirect
90 1 1;10;11;10;11;12
9 1 1;10;11;12
1 1 1;10;13
4 1 1;14;14;14
3 0 11;12
----
all total 100 self 0
  10 total 100 self 0
    11 total 99 self 0
      12 total 99 self 99
    13 total 1 self 1
ok
