// loupec run as a user runs it, for the CLI tests: its exit code (-1 when it
// did not finish in time, -2 when it crashed), stdout and stderr. Firmware
// builds go to a cache of the test's own, not the user's ~/.cache/loupe.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>

namespace loupe::test {

struct LoupecRun {
  int exitCode;
  QByteArray out;
  QByteArray err;
};

inline LoupecRun runLoupec(const QStringList& arguments, int timeoutMs = 60000) {
  static const QTemporaryDir cache;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert(QStringLiteral("XDG_CACHE_HOME"), cache.path());
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(LOUPEC_PATH), arguments);
  if (!process.waitForFinished(timeoutMs)) return {-1, {}, "loupec did not finish"};
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
          process.readAllStandardOutput(), process.readAllStandardError()};
}

}  // namespace loupe::test
