// A one-line label that shows as much of its text as fits, cut in the middle ("…"), the whole text in its tooltip:
// the status bar's line (where the snapshot is from, its GPUs, stack and counts) at 1024x640 kept its end, the
// error and warning counts, off the window.
#pragma once

#include <QLabel>

namespace stackscope::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    // The whole text: shown cut to the label's width, whole in the tooltip.
    void setFullText(const QString& text);
    QString fullText() const { return m_full; }

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString m_full;
};

} // namespace stackscope::ui
