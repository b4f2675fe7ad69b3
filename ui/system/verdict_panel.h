// The verdict at the top of the System page: what blocks GPU work, each with its fix as a command to
// copy, or "all good"; the detail table stays below it.
#pragma once

#include "core/snapshot/snapshot.h"

#include <QFrame>
#include <QList>

#include <vector>

class QLabel;
class QVBoxLayout;

namespace stackscope::ui {

struct VerdictItem {
    Severity severity = Severity::Error;
    QString title;
    QString fix;     // the fix text, `command` spans included
    QString command; // what the Copy button copies; empty when the fix has no command
};

// The blocking findings (errors) of a snapshot, in their order.
QList<VerdictItem> blockingItems(const std::vector<Finding>& findings);

class VerdictPanel : public QFrame {
    Q_OBJECT
public:
    static constexpr int kMaxShown = 3; // more go to "and N more in the table below"

    explicit VerdictPanel(QWidget* parent = nullptr);

    // items empty: "all good" with allGood as the line under it.
    void setItems(const QList<VerdictItem>& items, const QString& allGood);
    // No blocking problem but no GPU either: not "all good" for GPU work; `text` says what can run and where to look.
    void showNoGpu(const QString& text);
    QString headline() const;
    int itemCount() const { return m_items.size(); }
    // The commands offered with a Copy button, in order.
    QStringList commands() const;

private:
    QWidget* makeRow(const VerdictItem& item);
    void clearRows();

    QLabel* m_headline;
    QVBoxLayout* m_rows;
    QList<VerdictItem> m_items;
};

} // namespace stackscope::ui
