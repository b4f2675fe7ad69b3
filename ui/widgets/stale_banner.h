// The yellow "out of date" line above results that were computed with other options than the form's now.
#pragma once

#include <QLabel>
#include <QStringList>

namespace stackscope::ui {

class StaleBanner : public QLabel {
    Q_OBJECT
public:
    explicit StaleBanner(QWidget* parent = nullptr);

    // Shows "Out of date: computed with <computedWith>; options changed since (now <changes>): <action>." when
    // `changes` is not empty, else hides. Returns whether it is shown.
    bool update(const QString& computedWith, const QStringList& changes, const QString& action);
    bool isStale() const { return m_stale; }

    // The text without the banner (tests; the page's status line).
    static QString message(const QString& computedWith, const QStringList& changes, const QString& action);

private:
    bool m_stale = false;
};

} // namespace stackscope::ui
