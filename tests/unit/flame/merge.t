# flame: stacks merged by path (1;2;3 twice), recursion as depth (4;4;4), children most first, incomplete and truncated apart
5 1 1;2;3
2 1 1;2;3
3 1 1;2
4 1 1;4;4;4
1 1 1;5
6 0 2;3
2 2 4;4
----
all total 23 self 0
  1 total 15 self 0
    2 total 10 self 3
      3 total 7 self 7
    4 total 4 self 0
      4 total 4 self 0
        4 total 4 self 4
    5 total 1 self 1
  [incomplete] total 6 self 0
    2 total 6 self 0
      3 total 6 self 6
  [truncated] total 2 self 0
    4 total 2 self 0
      4 total 2 self 2
ok
