# collapse: eval (10) and apply (11) call each other, apply calls heavy (12), eval light (13): through others collapsed, heavy under apply once, light under the first eval (it called light, not apply); fib-like 14 calling itself stays nested
view - 0 indirect
90 1 1;10;11;10;11;12
9 1 1;10;11;12
1 1 1;10;13
2 1 1;10;11;10;13
4 1 1;14;14;14
3 0 11;12
----
all total 109 self 0
  1 total 106 self 0
    10 total 102 self 0
      11 total 99 self 0
        12 total 99 self 99
      13 total 3 self 3
    14 total 4 self 0
      14 total 4 self 0
        14 total 4 self 4
  [incomplete] total 3 self 0
    11 total 3 self 0
      12 total 3 self 3
ok
