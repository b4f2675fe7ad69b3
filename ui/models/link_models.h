// The topology view's two models over a judged run (core/perf/link_matrix.h): the GPU x GPU matrix with the host as
// one more row and column, and the figures that are no link (collectives first). Each cell is coloured by its verdict
// and starts with a marker that reads without colour; its tooltip has the rule and the sources.
#pragma once

#include "core/perf/link_matrix.h"

#include <QAbstractTableModel>
#include <QColor>

namespace stackscope::ui {

// Light tints behind dark text (readable in a screenshot and printed); the marker carries the verdict without them.
QColor verdictBackground(perf::Verdict v);
QColor verdictForeground(perf::Verdict v);

class LinkMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles { VerdictRole = Qt::UserRole, FigureCountRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setMatrix(perf::LinkMatrix matrix);
    const perf::LinkMatrix& matrix() const { return m_matrix; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString nodeName(int section) const;

    perf::LinkMatrix m_matrix;
};

class LinkFiguresModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { TestColumn, WhereColumn, MeasuredColumn, ExpectedColumn, RatioColumn, VerdictColumn, NUM_COLUMNS };
    enum Roles { VerdictRole = Qt::UserRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setFigures(std::vector<perf::Figure> figures);
    const perf::Figure* figureAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<perf::Figure> m_figures;
};

} // namespace stackscope::ui
