# callers: heavy (12) and its callers up to the root: apply, eval, 1; an incomplete stack ends with its marker
view 12 1 indirect
90 1 1;10;11;10;11;12
9 1 1;10;11;12
1 1 1;10;13
4 1 1;14;14;14
3 0 11;12
----
all total 102 self 0
  12 total 102 self 0
    11 total 102 self 0
      10 total 99 self 0
        1 total 99 self 99
      [incomplete] total 3 self 3
ok
