// The per-epoch table's view: every column as wide as its header and widest cell need, the room left shared out,
// cells elided in the middle (whole text in the tooltip) only where the window is narrower than all of that.
#pragma once

#include <QTableView>

#include <vector>

namespace stackscope::ui {

// Plain column math (tested with rows): each column gets its need; what is left of `available` is shared
// equally; when the needs exceed it, the columns keep their needs (the view scrolls sideways).
std::vector<int> fitColumnWidths(const std::vector<int>& needs, int available);

class EpochTableView : public QTableView {
    Q_OBJECT
public:
    explicit EpochTableView(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model) override;
    // What each column needs: its header's text and its widest cell among the rows measured (the last 200 and
    // the best epoch's), plus padding.
    std::vector<int> columnNeeds() const;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitColumns();
};

} // namespace stackscope::ui
