// Walks a widget tree for the texts it draws; redacts the text runs of rich text.
#include "ui/report/text_scrub.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTabBar>
#include <QTextDocument>
#include <QTextEdit>

namespace stackscope::ui {

namespace {

// Decodes the few entities Qt writes (toHtmlEscaped and toHtml), so the redactor sees the text as drawn.
QString htmlDecode(QString text)
{
    text.replace(QLatin1String("&lt;"), QLatin1String("<"));
    text.replace(QLatin1String("&gt;"), QLatin1String(">"));
    text.replace(QLatin1String("&quot;"), QLatin1String("\""));
    text.replace(QLatin1String("&#39;"), QLatin1String("'"));
    text.replace(QLatin1String("&nbsp;"), QString(QChar(0xa0)));
    text.replace(QLatin1String("&amp;"), QLatin1String("&"));
    return text;
}

void modelTexts(const QAbstractItemModel* model, const QModelIndex& parent, QStringList& out, int& budget)
{
    const int rows = model->rowCount(parent);
    const int columns = model->columnCount(parent);
    for (int r = 0; r < rows && budget > 0; ++r) {
        for (int c = 0; c < columns && budget > 0; ++c, --budget) {
            const QModelIndex i = model->index(r, c, parent);
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                const QString t = model->data(i, role).toString();
                if (!t.isEmpty())
                    out << t;
            }
            if (c == 0 && model->hasChildren(i))
                modelTexts(model, i, out, budget);
        }
    }
}

} // namespace

QStringList ownTexts(const QWidget* w, int maxModelCells)
{
    QStringList out;
    if (auto* l = qobject_cast<const QLabel*>(w))
        out << l->text();
    else if (auto* e = qobject_cast<const QLineEdit*>(w))
        out << e->text() << e->placeholderText();
    else if (auto* t = qobject_cast<const QTextEdit*>(w))
        out << t->toPlainText();
    else if (auto* p = qobject_cast<const QPlainTextEdit*>(w))
        out << p->toPlainText();
    else if (auto* b = qobject_cast<const QAbstractButton*>(w))
        out << b->text();
    else if (auto* g = qobject_cast<const QGroupBox*>(w))
        out << g->title();
    else if (auto* c = qobject_cast<const QComboBox*>(w)) {
        for (int i = 0; i < c->count(); ++i)
            out << c->itemText(i);
    } else if (auto* tabs = qobject_cast<const QTabBar*>(w)) {
        for (int i = 0; i < tabs->count(); ++i)
            out << tabs->tabText(i);
    } else if (auto* v = qobject_cast<const QAbstractItemView*>(w)) {
        if (const auto* m = v->model()) {
            int budget = maxModelCells;
            modelTexts(m, v->rootIndex(), out, budget);
            for (int c = 0; c < m->columnCount(); ++c)
                out << m->headerData(c, Qt::Horizontal).toString();
            for (int r = 0; r < m->rowCount() && r < 10000; ++r)
                out << m->headerData(r, Qt::Vertical).toString();
        }
    }
    out.removeAll(QString());
    return out;
}

QStringList widgetTexts(const QWidget* root, int maxModelCells)
{
    QStringList out;
    if (!root)
        return out;
    QList<const QWidget*> widgets {root};
    for (auto* w : root->findChildren<QWidget*>())
        widgets << w;
    for (const QWidget* w : widgets) {
        if (!w->windowTitle().isEmpty())
            out << w->windowTitle();
        if (!w->toolTip().isEmpty())
            out << w->toolTip();
        out << ownTexts(w, maxModelCells);
    }
    return out;
}

QString redactRichText(const QString& html, const std::function<QString(const QString&)>& redact)
{
    // Tags are kept as they are (they are not drawn); each run of text between them is decoded,
    // redacted and escaped again, so a placeholder such as <user> is drawn, not parsed as a tag.
    static const QRegularExpression tag(QStringLiteral("<[^<>]*>"));
    QString out;
    qsizetype pos = 0;
    auto text = [&](qsizetype from, qsizetype to) {
        if (to <= from)
            return;
        const QString raw = html.mid(from, to - from);
        const QString plain = htmlDecode(raw);
        const QString clean = redact(plain);
        out += clean == plain ? raw : clean.toHtmlEscaped();
    };
    for (auto it = tag.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        text(pos, m.capturedStart());
        out += m.captured();
        pos = m.capturedEnd();
    }
    text(pos, html.size());
    return out;
}

} // namespace stackscope::ui
