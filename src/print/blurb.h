/* blurb: the explanations GNU gprof prints after its flat profile and call graph. */
#ifndef TGPROF_BLURB_H
#define TGPROF_BLURB_H

extern const char blurb_flat[];		/* after the flat profile (FSF and -T) */
extern const char blurb_callg_fsf[];	/* after the call graph */
extern const char blurb_callg_bsd[];	/* before the call graph with -T */

#endif
