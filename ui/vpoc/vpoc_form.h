// The VPOC page's form: the market data file, and one widget per field of core's table (core/vpoc/vpoc_options.h).
#pragma once

#include "core/vpoc/vpoc_options.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QGroupBox;
class QLineEdit;

namespace stackscope::ui {

class VpocForm : public QWidget {
    Q_OBJECT
public:
    explicit VpocForm(QWidget* parent = nullptr);

    // The page's defaults: core's, with the developing values on (they draw the price line) and the profiles kept
    // (the histogram needs them).
    static vpoc::VpocRequest pageDefaults();

    // The request the form describes: the page's defaults, then each field that differs from them read by its own
    // parse (as the command line parses only the flags given). Throws std::invalid_argument naming the field.
    vpoc::VpocRequest request() const;
    // The input file as typed (trimmed).
    QString inputText() const;
    void setInputFile(const QString& path);
    // The form set to a run's options (a report's run, replayed): the input and each field a run's JSON records
    // (the backend and the developing values, which a run does not record, stay as they are). Returns the fields it
    // could not set ("tick 0.00001": a value the widget cannot hold), which then differ from the run's.
    QStringList setOptions(const vpoc::VpocOptions& options);
    // The widget of a field of the table (tests); null for a field the form does not have.
    QWidget* fieldWidget(const char* name) const;

Q_SIGNALS:
    // The input or any option changed (the page marks results computed with others).
    void changed();
    void sampleDataAsked();

private:
    QGroupBox* createInputBox();
    QGroupBox* createOptionsBox();
    QWidget* createField(const vpoc::VpocField& field, const QString& value, QWidget* parent);
    QString widgetText(const vpoc::VpocField& field, QWidget* widget) const;
    void setWidgetText(const vpoc::VpocField& field, QWidget* widget, const QString& text);

    struct Row {
        const vpoc::VpocField* field;
        QWidget* widget;
    };
    std::vector<Row> m_rows;
    QLineEdit* m_input = nullptr;
};

} // namespace stackscope::ui
