/* walk-none: libtgmon's call stacks where it has no stack walker (aarch64 for now): none recorded. */
#include "tgmon.h"

/*
 * The interface of walk.c, recording nothing: the samples still make
 * the histogram, the calls are still counted, and no gmon.out.stacks is
 * written (tgmon_cfg.stacks is cleared at start, as TGMON_STACKS=0 does).
 */
void
tgmon_stacks_start(void)
{
	tgmon_cfg.stacks = 0;
}

void
tgmon_stacks_thread(uint64_t frame, uint64_t link)
{
}

void
tgmon_stacks_arc(uint64_t self, uint64_t frame, uint64_t link)
{
}

void
tgmon_stacks_thread_ends(void)
{
}

uint64_t
tgmon_stacks_sample(const void *uc, uint32_t weight, int self)
{
	return 0;
}

void
tgmon_stacks_reset(void)
{
}

void
tgmon_stacks_restorer(uint64_t addr)
{
}

void
tgmon_stacks_counts(uint64_t *lost, uint64_t *signals)
{
	*lost = 0;
	*signals = 0;
}

void
tgmon_stacks_each(tgmon_stack_fn *f, void *ctx)
{
}
