// VpocForm: widgets made from the fields' table, read back through each field's parse.
#include "ui/vpoc/vpoc_form.h"

#include "ui/widgets/file_dialogs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace stackscope::ui {

namespace {

using vpoc::FieldKind;

QString defaultText(const vpoc::VpocField& field)
{
    return QString::fromStdString(vpoc::fieldText(field.value(VpocForm::pageDefaults())));
}

} // namespace

VpocForm::VpocForm(QWidget* parent)
    : QWidget(parent)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(createInputBox());
    v->addWidget(createOptionsBox());
    v->addStretch(1);
}

vpoc::VpocRequest VpocForm::pageDefaults()
{
    vpoc::VpocRequest r;
    r.options.developing = true;
    r.options.profile.keepProfiles = true;
    return r;
}

// The market data file: typed, browsed, dropped on the page, or the sample data.
QGroupBox* VpocForm::createInputBox()
{
    auto* box = new QGroupBox(tr("Market data (drop a file here)"), this);
    m_input = new QLineEdit(box);
    m_input->setObjectName(QStringLiteral("vpocInput"));
    // Formats are recognised by content (core/vpoc/market_source.h).
    m_input->setPlaceholderText(tr("CSV, DBN, SCID or NinjaTrader file"));
    m_input->setToolTip(tr("Bars or trades: CSV (TradeStation/Barchart too), Databento .dbn or .dbn.zst, Sierra Chart "
                           ".scid, NinjaTrader .txt exports"));
    auto* browse = new QPushButton(tr("Browse…"), box);
    auto* sample = new QPushButton(tr("Sample data"), box);
    sample->setToolTip(tr("Synthetic ES futures 1-minute bars (20 trading days, deterministic)"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = openFileInLastFolder(
            this, tr("Market data"), tr("Market data (*.csv *.txt *.dbn *.zst *.scid);;All files (*)"));
        if (!path.isEmpty())
            setInputFile(path);
    });
    connect(sample, &QPushButton::clicked, this, &VpocForm::sampleDataAsked);
    connect(m_input, &QLineEdit::textChanged, this, &VpocForm::changed);
    auto* grid = new QGridLayout(box);
    grid->addWidget(m_input, 0, 0, 1, 2);
    grid->addWidget(browse, 1, 0);
    grid->addWidget(sample, 1, 1);
    return box;
}

// A row for every field of the table that has a label, in the table's order.
QGroupBox* VpocForm::createOptionsBox()
{
    auto* box = new QGroupBox(tr("Options"), this);
    auto* form = new QFormLayout(box);
    for (const auto& field : vpoc::vpocFields()) {
        if (!field.label)
            continue;
        QWidget* widget = createField(field, defaultText(field), box);
        widget->setObjectName(QStringLiteral("vpoc-%1").arg(QLatin1String(field.name)));
        widget->setToolTip(tr(field.help));
        m_rows.push_back({ &field, widget });
        if (field.kind == FieldKind::Switch)
            form->addRow(widget);
        else
            form->addRow(tr(field.label), widget);
    }
    return box;
}

QWidget* VpocForm::createField(const vpoc::VpocField& field, const QString& value, QWidget* parent)
{
    switch (field.kind) {
    case FieldKind::Choice:
    case FieldKind::Editable: {
        auto* box = new QComboBox(parent);
        for (const char* choice : field.choices)
            box->addItem(QString::fromLatin1(choice));
        box->setEditable(field.kind == FieldKind::Editable);
        box->setCurrentText(value);
        connect(box, &QComboBox::currentTextChanged, this, &VpocForm::changed);
        return box;
    }
    case FieldKind::Decimal: {
        auto* spin = new QDoubleSpinBox(parent);
        spin->setDecimals(field.range.decimals);
        spin->setRange(field.range.min, field.range.max);
        spin->setSuffix(QString::fromLatin1(field.range.suffix));
        spin->setValue(value.toDouble());
        connect(spin, &QDoubleSpinBox::valueChanged, this, &VpocForm::changed);
        return spin;
    }
    case FieldKind::Whole: {
        auto* spin = new QSpinBox(parent);
        spin->setRange(static_cast<int>(field.range.min), static_cast<int>(field.range.max));
        spin->setSuffix(QString::fromLatin1(field.range.suffix));
        spin->setValue(value.toInt());
        connect(spin, &QSpinBox::valueChanged, this, &VpocForm::changed);
        return spin;
    }
    case FieldKind::Switch: {
        auto* check = new QCheckBox(tr(field.label), parent);
        check->setChecked(value == QLatin1String("true"));
        connect(check, &QCheckBox::toggled, this, &VpocForm::changed);
        return check;
    }
    case FieldKind::Path:
    case FieldKind::Text:
        break;
    }
    auto* edit = new QLineEdit(value, parent);
    connect(edit, &QLineEdit::textChanged, this, &VpocForm::changed);
    return edit;
}

// The widget's value as the text its field's parse reads ("0.25", "70", "true").
QString VpocForm::widgetText(const vpoc::VpocField& field, QWidget* widget) const
{
    switch (field.kind) {
    case FieldKind::Choice:
    case FieldKind::Editable:
        return static_cast<QComboBox*>(widget)->currentText().trimmed();
    case FieldKind::Decimal:
        return QString::number(static_cast<QDoubleSpinBox*>(widget)->value(), 'g', 10);
    case FieldKind::Whole:
        return QString::number(static_cast<QSpinBox*>(widget)->value());
    case FieldKind::Switch:
        return static_cast<QCheckBox*>(widget)->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    case FieldKind::Path:
    case FieldKind::Text:
        break;
    }
    return static_cast<QLineEdit*>(widget)->text().trimmed();
}

vpoc::VpocRequest VpocForm::request() const
{
    vpoc::VpocRequest r = pageDefaults();
    vpoc::vpocField("input").parse(inputText().toStdString(), r);
    for (const auto& row : m_rows) {
        const QString text = widgetText(*row.field, row.widget);
        // A value left at the page's default is that default already; a zone left as it is was not "given" (the
        // command line's rule: NinjaTrader files are then read as UTC).
        if (text != defaultText(*row.field))
            row.field->parse(text.toStdString(), r);
    }
    return r;
}

QString VpocForm::inputText() const
{
    return m_input->text().trimmed();
}

QStringList VpocForm::setOptions(const vpoc::VpocOptions& options)
{
    vpoc::VpocRequest run = pageDefaults();
    run.options = options;
    QStringList notSet;
    {
        const QSignalBlocker quiet(this); // one changed() below, not one a field
        m_input->setText(QString::fromStdString(options.input));
        for (const auto& row : m_rows) {
            if (!row.field->jsonKey)
                continue; // not recorded by a run: the form keeps its choice
            const QString text = QString::fromStdString(vpoc::fieldText(row.field->value(run)));
            setWidgetText(*row.field, row.widget, text);
            // Read back through the field's parse: "70" and "70.00" are one value, 0.00001 in a 4-decimal box is not.
            bool same = false;
            try {
                vpoc::VpocRequest back = pageDefaults();
                row.field->parse(widgetText(*row.field, row.widget).toStdString(), back);
                same = vpoc::fieldText(row.field->value(back)) == text.toStdString();
            } catch (const std::exception&) {
            }
            if (!same)
                notSet << QStringLiteral("%1 %2").arg(tr(row.field->label), text);
        }
    }
    Q_EMIT changed();
    return notSet;
}

// Sets a field's widget from the text its parse reads; a choice it does not offer or a number out of its range is left
// as the widget makes it (the caller compares).
void VpocForm::setWidgetText(const vpoc::VpocField& field, QWidget* widget, const QString& text)
{
    const QSignalBlocker quiet(widget);
    switch (field.kind) {
    case FieldKind::Choice:
    case FieldKind::Editable: {
        auto* box = static_cast<QComboBox*>(widget);
        const int i = box->findText(text);
        if (i >= 0)
            box->setCurrentIndex(i);
        else if (box->isEditable())
            box->setCurrentText(text);
        return;
    }
    case FieldKind::Decimal:
        static_cast<QDoubleSpinBox*>(widget)->setValue(text.toDouble());
        return;
    case FieldKind::Whole:
        static_cast<QSpinBox*>(widget)->setValue(text.toInt());
        return;
    case FieldKind::Switch:
        static_cast<QCheckBox*>(widget)->setChecked(text == QLatin1String("true"));
        return;
    case FieldKind::Path:
    case FieldKind::Text:
        break;
    }
    static_cast<QLineEdit*>(widget)->setText(text);
}

void VpocForm::setInputFile(const QString& path)
{
    m_input->setText(path);
}

QWidget* VpocForm::fieldWidget(const char* name) const
{
    for (const auto& row : m_rows)
        if (qstrcmp(row.field->name, name) == 0)
            return row.widget;
    return nullptr;
}

} // namespace stackscope::ui
