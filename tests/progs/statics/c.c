/* statics' third file: a static helper() as a.c has, never called (neither time nor calls); linked first, it comes first. */
extern volatile int sink;

__attribute__((noinline, used)) static void helper(void) { sink += 2; }
