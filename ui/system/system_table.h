// The System page's tables (findings, stack, kernel coverage): one row selected at a time, no row numbers, rows as tall
// as a line of text with a little room, read-only.
#pragma once

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace stackscope::ui {

QTableView* makeSystemTable(QAbstractItemModel* model, QWidget* parent);

} // namespace stackscope::ui
