// The one-page report of a compilation (File > Export > Report): the model,
// its targets, planner and board, RAM and flash (against the board's
// memories when it was compiled for one), the operator table, the memory
// plan's picture and, after a run, the profile. XHTML, so it opens in any
// browser and parses as XML; the picture is inline, so the page is one file.
#pragma once

#include <QAbstractItemModel>
#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include "models/memory_plan_layout.h"

namespace loupe::models {

struct CompilationReport {
  QString title;                         // the model's name
  QList<QPair<QString, QString>> facts;  // ("Targets", "c"), ("RAM", "16,256 bytes")...
  QList<PlannedMemory> memories;         // the board's, with their fill
  const QAbstractItemModel* operators = nullptr;
  int operatorValueRole = Qt::DisplayRole;
  QByteArray memoryPlanPng;                     // the Memory Plan view's chart
  const QAbstractItemModel* profile = nullptr;  // null: no run yet
  QString profileCaption;                       // "on qemu-mps3-an547: 13,829,202 instructions"
};

QByteArray compilationReportHtml(const CompilationReport& report);

}  // namespace loupe::models
