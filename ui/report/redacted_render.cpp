// Draws a widget tree widget by widget, putting a redacted stand-in where a widget's text is private.
#include "ui/report/redacted_render.h"

#include "ui/report/text_scrub.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTextEdit>
#include <QToolButton>

#include <memory>

namespace stackscope::ui {

namespace {

using Redact = std::function<QString(const QString&)>;

// What the stand-in needs to look like the original: its resolved font and palette, its own style
// sheet (the pages set theirs on the widget itself), its background and size.
void copyLook(const QWidget* from, QWidget* to)
{
    to->setObjectName(from->objectName());
    to->setStyleSheet(from->styleSheet());
    to->setFont(from->font());
    to->setPalette(from->palette());
    to->setBackgroundRole(from->backgroundRole());
    to->setForegroundRole(from->foregroundRole());
    to->setAutoFillBackground(from->autoFillBackground());
    to->setLayoutDirection(from->layoutDirection());
    to->setContentsMargins(from->contentsMargins());
    to->setEnabled(from->isEnabled());
    to->resize(from->size());
}

bool isRich(const QLabel* label)
{
    return label->textFormat() == Qt::RichText
           || (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
}

std::unique_ptr<QWidget> labelStandIn(const QLabel* l, const Redact& redact)
{
    const QString clean = isRich(l) ? redactRichText(l->text(), redact) : redact(l->text());
    if (clean == l->text())
        return nullptr;
    auto s = std::make_unique<QLabel>(clean);
    s->setTextFormat(l->textFormat());
    s->setAlignment(l->alignment());
    s->setWordWrap(l->wordWrap());
    s->setMargin(l->margin());
    s->setIndent(l->indent());
    s->setFrameStyle(l->frameStyle());
    s->setLineWidth(l->lineWidth());
    s->setMidLineWidth(l->midLineWidth());
    return s;
}

std::unique_ptr<QWidget> lineEditStandIn(const QLineEdit* e, const Redact& redact)
{
    const QString text = redact(e->text()), placeholder = redact(e->placeholderText());
    if (text == e->text() && placeholder == e->placeholderText())
        return nullptr;
    auto s = std::make_unique<QLineEdit>(text);
    s->setPlaceholderText(placeholder);
    s->setFrame(e->hasFrame());
    s->setAlignment(e->alignment());
    s->setEchoMode(e->echoMode());
    s->setReadOnly(e->isReadOnly());
    s->setCursorPosition(0); // the start of a long path, as the field shows it when not edited
    return s;
}

std::unique_ptr<QWidget> textEditStandIn(const QWidget* w, const Redact& redact)
{
    if (auto* t = qobject_cast<const QTextEdit*>(w)) {
        const QString html = t->toHtml(), clean = redactRichText(html, redact);
        if (clean == html)
            return nullptr;
        auto s = std::make_unique<QTextEdit>();
        s->setHtml(clean);
        s->setFrameStyle(t->frameStyle());
        s->setLineWrapMode(t->lineWrapMode());
        return s;
    }
    if (auto* p = qobject_cast<const QPlainTextEdit*>(w)) {
        const QString text = p->toPlainText(), clean = redact(text);
        if (clean == text)
            return nullptr;
        auto s = std::make_unique<QPlainTextEdit>(clean);
        s->setFrameStyle(p->frameStyle());
        s->setLineWrapMode(p->lineWrapMode());
        return s;
    }
    return nullptr;
}

// The same kind of button (push, check, radio, tool) in the same state; any other kind is drawn as a push button.
std::unique_ptr<QAbstractButton> buttonOfKind(const QAbstractButton* b)
{
    if (qobject_cast<const QCheckBox*>(b))
        return std::make_unique<QCheckBox>();
    if (qobject_cast<const QRadioButton*>(b))
        return std::make_unique<QRadioButton>();
    if (auto* t = qobject_cast<const QToolButton*>(b)) {
        auto s = std::make_unique<QToolButton>();
        s->setToolButtonStyle(t->toolButtonStyle());
        s->setAutoRaise(t->autoRaise());
        return s;
    }
    auto s = std::make_unique<QPushButton>();
    if (auto* p = qobject_cast<const QPushButton*>(b)) {
        s->setFlat(p->isFlat());
        s->setDefault(p->isDefault());
    }
    return s;
}

std::unique_ptr<QWidget> buttonStandIn(const QAbstractButton* b, const Redact& redact)
{
    const QString clean = redact(b->text());
    if (clean == b->text())
        return nullptr;
    auto s = buttonOfKind(b);
    s->setText(clean);
    s->setIcon(b->icon());
    s->setIconSize(b->iconSize());
    s->setCheckable(b->isCheckable());
    s->setChecked(b->isChecked());
    return s;
}

// Only the box and its title: the children inside are drawn after it, each on its own.
std::unique_ptr<QWidget> groupBoxStandIn(const QGroupBox* g, const Redact& redact)
{
    const QString clean = redact(g->title());
    if (clean == g->title())
        return nullptr;
    auto s = std::make_unique<QGroupBox>(clean);
    s->setFlat(g->isFlat());
    s->setAlignment(g->alignment());
    s->setCheckable(g->isCheckable());
    s->setChecked(g->isChecked());
    return s;
}

std::unique_ptr<QWidget> standInFor(const QWidget* w, const Redact& redact)
{
    std::unique_ptr<QWidget> s;
    if (auto* l = qobject_cast<const QLabel*>(w))
        s = labelStandIn(l, redact);
    else if (auto* e = qobject_cast<const QLineEdit*>(w))
        s = lineEditStandIn(e, redact);
    else if (auto* b = qobject_cast<const QAbstractButton*>(w))
        s = buttonStandIn(b, redact);
    else if (auto* g = qobject_cast<const QGroupBox*>(w))
        s = groupBoxStandIn(g, redact);
    else
        s = textEditStandIn(w, redact);
    if (s)
        copyLook(w, s.get());
    return s;
}

struct Painter {
    QWidget* root;
    const Redact& redact;
    QPainter& painter;
    QStringList& texts;

    // `clip` is what the ancestors leave visible, in root coordinates (a scroll area's viewport cuts its content).
    void paint(QWidget* w, const QRect& clip)
    {
        const QRect area(w == root ? QPoint() : w->mapTo(root, QPoint()), w->size());
        const QRect visible = clip & area;
        if (visible.isEmpty())
            return;
        const auto standIn = standInFor(w, redact);
        QWidget* drawn = standIn ? standIn.get() : w;
        painter.save();
        painter.setClipRect(visible);
        // Only the root fills its window background; a child draws its own background only where it would on screen.
        drawn->render(&painter, area.topLeft(), QRegion(),
                      w == root ? QWidget::DrawWindowBackground : QWidget::RenderFlags());
        painter.restore();
        texts << ownTexts(drawn);
        // A stand-in draws the whole widget, inner parts included; a group box's children are drawn as usual.
        if (standIn && !qobject_cast<QGroupBox*>(w))
            return;
        for (QObject* o : w->children()) {
            auto* child = qobject_cast<QWidget*>(o);
            if (child && !child->isWindow() && !child->isHidden())
                paint(child, visible);
        }
    }
};

} // namespace

RedactedImage renderRedacted(QWidget* root, const std::function<QString(const QString&)>& redact)
{
    RedactedImage out;
    if (!root)
        return out;
    const qreal dpr = root->devicePixelRatioF();
    QPixmap pixmap(root->size() * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    {
        QPainter painter(&pixmap);
        Painter {root, redact, painter, out.drawnTexts}.paint(root, QRect(QPoint(), root->size()));
    }
    out.drawnTexts.removeAll(QString());
    out.image = pixmap.toImage();
    return out;
}

} // namespace stackscope::ui
