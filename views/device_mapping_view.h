// The Device Mapping tab: where the compiled model's operators run and what
// they cost there, the numbers of `loupec compile --report`. At the top each
// device's totals (operators, MACs, estimated cycles or "no cycle model") and
// the members of the generated struct tvmgen_<name>_devices; then one row per
// operator (device and target, region, MACs, the NPU's compute, memory and
// estimated cycles, utilisation, encoded/raw weights, or why the NPU refused
// it); below, the Ethos-U operators' cycles in every accelerator
// configuration with a total row and bars of the totals. Selecting a
// row selects the operator in every view.
#pragma once

#include <QWidget>

class QLabel;
class QSplitter;
class QTableView;

namespace loupe::models {
class ConfigurationCyclesModel;
class DeviceOperatorTableModel;
class DeviceTotalsModel;
class ModelCompilation;
class ModelDocument;
}  // namespace loupe::models

namespace loupe::views {

class ConfigurationBars;

class DeviceMappingView : public QWidget {
  Q_OBJECT

 public:
  DeviceMappingView(models::ModelDocument* document, models::ModelCompilation* compilation,
                    QWidget* parent = nullptr);

  QTableView* totalsTable() const { return totalsTable_; }
  QTableView* operatorTable() const { return operatorTable_; }
  QTableView* configurationTable() const { return configurationTable_; }
  QLabel* devicesStructLabel() const { return structLabel_; }
  ConfigurationBars* configurationBars() const { return bars_; }

 private:
  void refresh();
  void updateSpans();
  void showOperator(int operatorIndex);

  models::ModelDocument* document_;
  models::ModelCompilation* compilation_;
  models::DeviceTotalsModel* totalsModel_;
  models::DeviceOperatorTableModel* operatorModel_;
  models::ConfigurationCyclesModel* configurationModel_;
  QLabel* summary_;
  QTableView* totalsTable_;
  QLabel* structLabel_;
  QTableView* operatorTable_;
  QLabel* configurationTitle_;
  QTableView* configurationTable_;
  ConfigurationBars* bars_;
  QWidget* configurationPane_;
  QSplitter* configurationSplitter_;
};

}  // namespace loupe::views
