/* cmp's work: about MS milliseconds of a dependent chain the compiler cannot drop, in the function that runs it. */
extern volatile unsigned long sink;
void file_b(void);

#define WORK(ms) \
	for (long i_ = 0; i_ < (ms) * 1000000L; i_++) \
		sink += (unsigned long)i_ ^ (sink >> 3)
