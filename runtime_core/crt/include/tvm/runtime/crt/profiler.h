/*
 * Per-operator profiling: a fixed table, indexed by the operator's index in
 * the generated code, of how often each operator ran and how many
 * TVMPlatformProfilerTicks it took (last call and total).
 *
 * Generated code brackets every operator call with
 *   TVM_PROFILE_OPERATOR_BEGIN(i); ... TVM_PROFILE_OPERATOR_END(i);
 * which call the profiler only when TVM_CRT_PROFILING is defined non-zero
 * (on the command line or in crt_config.h) and are ((void)0) otherwise, so a
 * firmware built without profiling references no profiler symbol at all and
 * does not evaluate i.
 *
 * The table holds TVM_CRT_MAX_PROFILED_OPERATORS entries; an operator index
 * beyond it is not recorded but counted by TVMProfilerDropped (once per
 * BEGIN). While operator i runs, entries[i].last_ticks holds its start tick;
 * after its END it holds the call's duration. Operators with different
 * indices may nest; an END without a BEGIN is ignored.
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
  uint32_t calls;          /*!< completed BEGIN/END pairs; 0: never ran */
  uint32_t last_ticks;     /*!< ticks of the last completed call */
  uint64_t total_ticks;    /*!< ticks of all completed calls */
} TVMProfileEntry;

/*! \brief Clear every entry and the dropped count. */
void TVMProfilerReset(void);

/*! \brief Operator operator_index starts (reads TVMPlatformProfilerTicks last). */
void TVMProfilerOperatorBegin(uint32_t operator_index);

/*! \brief Operator operator_index ends (reads TVMPlatformProfilerTicks first). */
void TVMProfilerOperatorEnd(uint32_t operator_index);

/*! \brief 1 + the highest operator index begun since the last reset (0 if none):
 * how many entries of TVMProfilerEntries are worth reading. */
size_t TVMProfilerEntryCount(void);

/*! \brief The table, TVM_CRT_MAX_PROFILED_OPERATORS entries indexed by operator_index. */
const TVMProfileEntry* TVMProfilerEntries(void);

/*! \brief BEGINs of operator indices the table has no entry for. */
uint32_t TVMProfilerDropped(void);

/* On when TVM_CRT_PROFILING is non-zero or defined empty (then -(-1) == 1). */
#if defined(TVM_CRT_PROFILING) && ((TVM_CRT_PROFILING + 0) != 0 || (0 - TVM_CRT_PROFILING - 1) == 1)
#define TVM_PROFILE_OPERATOR_BEGIN(i) TVMProfilerOperatorBegin((uint32_t)(i))
#define TVM_PROFILE_OPERATOR_END(i) TVMProfilerOperatorEnd((uint32_t)(i))
#else
#define TVM_PROFILE_OPERATOR_BEGIN(i) ((void)0)
#define TVM_PROFILE_OPERATOR_END(i) ((void)0)
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_PROFILER_H_ */
