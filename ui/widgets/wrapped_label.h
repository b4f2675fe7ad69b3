// A word-wrapped label for messages with long unbreakable words (file paths): a word wider than the label is cut in
// the middle ("/work/main/tests/fi…/report.txt:1:1:") so the label never widens its column nor cuts its lines at
// the right edge; the whole text is in its tooltip (walkthrough 2026-11-27 third, problem 1).
#pragma once

#include <QLabel>
#include <QStringList>

namespace stackscope::ui {

class WrappedLabel : public QLabel {
    Q_OBJECT
public:
    explicit WrappedLabel(QWidget* parent = nullptr);

    // Plain text: shown wrapped with over-wide words cut to the label's width, whole in the tooltip when cut.
    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    // Texts the label may show later: its height is the tallest of them and its own at its width, so switching to
    // another never moves what sits below it (the Training form's input note: walkthrough 2026-11-27 third, problem 7).
    void setReservedTexts(const QStringList& texts);

    // Any width (the words are cut to it); the height its text needs at that width.
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();
    // The text as shown in `room` pixels of line: each word wider than that cut in the middle.
    QString shownFor(int room) const;
    QString shownFor(const QString& text, int room) const;

    QString m_full;
    QStringList m_reserved;
};

// `text` with every whitespace-separated word wider than `room` pixels (in `metrics`) cut in the middle to fit.
QString elideLongWords(const QString& text, const QFontMetrics& metrics, int room);

} // namespace stackscope::ui
