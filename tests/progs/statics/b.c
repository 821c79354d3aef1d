/* statics' second file: its own static setup(), calling init_b(). */
extern volatile int sink;
void init_b(void);

__attribute__((noinline)) void init_b(void) { sink++; }

static __attribute__((constructor, noinline)) void setup(void) { init_b(); }
