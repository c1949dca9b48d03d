// Files the gui tests open: the reference models and files the importer must
// reject (random bytes, a model cut short).
#pragma once

#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

#include "deploy/registries.h"

namespace loupe::test {

QString kwsModelPath();   // tests/data/models/kws_ref_model/model.tflite
QString vwwModelPath();   // tests/data/models/vww_96_int8/model.tflite
QString ad01ModelPath();  // tests/data/models/ad01_int8/model.tflite: small, quick to tune
QString velaModelPath();  // one CUSTOM(ethos-u) operator: runs on the Ethos-U model

// The operator types of kws_ref_model in execution order (checked against
// `loupec info`).
QStringList kwsOperatorTypes();

// The built-in targets and platforms, built once for the whole test, as an
// app builds them at start-up.
std::shared_ptr<const deploy::Registries> registries();

// kws with its SOFTMAX replaced by an int8 LOG_SOFTMAX (TFLite's output
// quantisation, 16/256 and 127), which the Ethos-U emitter does not lower:
// its first 12 operators run on the NPU, the last on the CPU with its
// reason. Written once, for the whole test.
QString kwsWithCpuTailModelPath();

// The Vela model with its custom code renamed "ethos-x", written into `dir`:
// one custom operator Loupe knows nothing of, so never runnable.
QString writeUnknownCustomOperatorModel(const QTemporaryDir& dir);

// Writes `size` pseudo-random bytes (fixed seed) into `dir` and returns the path.
QString writeCorruptModel(const QTemporaryDir& dir, int size = 4096);

}  // namespace loupe::test
