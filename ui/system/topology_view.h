// The System page's topology: a judged bandwidth run as a GPU x GPU matrix (row: source, column: destination; the
// diagonal the device's own copy) with the host as one more row and column, the collectives' bus bandwidth beside
// it, each cell coloured by verdict with a marker that reads without colour; the run's header and a legend.
#pragma once

#include "ui/system/bandwidth_controller.h"

#include <QWidget>

class QBoxLayout;
class QCheckBox;
class QLabel;
class QTableView;

namespace stackscope::ui {

class LinkFiguresModel;
class LinkMatrixModel;

class TopologyView : public QWidget {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);

    LinkMatrixModel* matrixModel() const { return m_matrixModel; }
    LinkFiguresModel* figuresModel() const { return m_figuresModel; }
    QString headerText() const;

public Q_SLOTS:
    // Null: nothing shown (the view hides its parts).
    void showRun(stackscope::ui::ShownRunPtr run);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* createLegend();
    void showFigures();
    void fitTables();
    void arrange();

    LinkMatrixModel* m_matrixModel;
    LinkFiguresModel* m_figuresModel;
    QLabel* m_header;
    QTableView* m_matrix;
    QTableView* m_figures;
    QCheckBox* m_allFigures;
    QBoxLayout* m_body;
    ShownRunPtr m_run;
};

} // namespace stackscope::ui
