/*
 * Per-operator profiling: a fixed table, indexed by the operator's index in
 * the generated code, of how often each operator ran and how many
 * TVMPlatformProfilerTicks it took (last call and total).
 *
 * Whoever runs the model (the RPC server, an application) calls
 * TVMProfilerRunStart() just before it, and generated code follows every
 * operator call with TVM_PROFILE_OPERATOR_DONE(i). Each is one tick read, a
 * mark: operator i is charged the ticks from the previous mark to its own.
 * The marks split the run without gaps, so the operators add up to the run
 * however short they are: the way into the model (the embedded entry point's
 * checks, argument unpacking) is charged to the first operator, the glue
 * between two calls (argument set-up, the status check, the profiler's own
 * bookkeeping) to the operator that follows it, a few dozen instructions
 * per call. Only the way back out after the last mark is no operator's.
 *
 * The macro calls the profiler only when TVM_CRT_PROFILING is defined
 * non-zero (on the command line or in crt_config.h) and is ((void)0)
 * otherwise, so a firmware built without profiling references no profiler
 * symbol at all and does not evaluate i.
 *
 * The table holds TVM_CRT_MAX_PROFILED_OPERATORS entries; an operator index
 * beyond it is not recorded but counted by TVMProfilerDropped, and still
 * sets the mark. A DONE with no run started since the last reset is ignored.
 */
#ifndef TVM_RUNTIME_CRT_PROFILER_H_
#define TVM_RUNTIME_CRT_PROFILER_H_

#include <stddef.h>
#include <stdint.h>

#include "crt_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t operator_index; /*!< equal to the entry's position in the table */
  uint32_t calls;          /*!< DONEs of this operator; 0: never ran */
  uint32_t last_ticks;     /*!< ticks of the last completed call */
  uint64_t total_ticks;    /*!< ticks of all completed calls */
} TVMProfileEntry;

/*! \brief Clear every entry and the dropped count. */
void TVMProfilerReset(void);

/*! \brief A run starts: the first mark. Returns its tick, so the caller can
 * time the whole run from the same instant. */
uint32_t TVMProfilerRunStart(void);

/*! \brief Operator operator_index is done: it is charged the ticks since the
 * last mark, and now is the next mark. */
void TVMProfilerOperatorDone(uint32_t operator_index);

/*! \brief The ticks since the last mark are no operator's (a debug build
 * sending an operator's tensors to the host): now is the next mark. */
void TVMProfilerSkip(void);

/*! \brief 1 + the highest operator index done since the last reset (0 if none):
 * how many entries of TVMProfilerEntries are worth reading. */
size_t TVMProfilerEntryCount(void);

/*! \brief The table, TVM_CRT_MAX_PROFILED_OPERATORS entries indexed by operator_index. */
const TVMProfileEntry* TVMProfilerEntries(void);

/*! \brief DONEs of operator indices the table has no entry for. */
uint32_t TVMProfilerDropped(void);

/* On when TVM_CRT_PROFILING is non-zero or defined empty (then -(-1) == 1). */
#if defined(TVM_CRT_PROFILING) && ((TVM_CRT_PROFILING + 0) != 0 || (0 - TVM_CRT_PROFILING - 1) == 1)
#define TVM_PROFILE_OPERATOR_DONE(i) TVMProfilerOperatorDone((uint32_t)(i))
#define TVM_PROFILE_SKIP() TVMProfilerSkip()
#else
#define TVM_PROFILE_OPERATOR_DONE(i) ((void)0)
#define TVM_PROFILE_SKIP() ((void)0)
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_PROFILER_H_ */
