// SPDX-License-Identifier: MIT
// The theme's readability rules that users met (issue 33.10): a visible highlight in combo box lists
// (contrast of at least 4.5:1, read from the palette and from the pixels drawn), no stray icons on dialog
// buttons, and a check box on unchecked toggles in menus.
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QPushButton>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTest>
#include <QToolButton>

#include "app_test_support.hpp"
#include "gui_test_main.hpp"
#include "window/theme.hpp"

using namespace convolab;
using namespace convolab::gui;

class ThemeTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    test::prepareTestEnvironment(QStringLiteral("theme-test"));
    theme::apply(*qApp);
  }

  // The Strategy and Size lists had a hover highlight of about 1.1:1 against the list.
  void comboListHighlightHasAContrastOfAtLeast4_5() {
    QComboBox box;
    box.addItems({QStringLiteral("7×7"), QStringLiteral("9×9"), QStringLiteral("11×11")});
    box.show();
    box.showPopup();
    QAbstractItemView* view = box.view();
    QVERIFY(QTest::qWaitForWindowExposed(view->window()));
    const QPalette p = view->palette();
    const QColor highlight = p.color(QPalette::Highlight), text = p.color(QPalette::HighlightedText);
    const QColor list = p.color(view->viewport()->backgroundRole());
    QVERIFY2(test::contrastRatio(highlight, list) >= 4.5,
             qPrintable(QStringLiteral("%1 on %2: %3")
                            .arg(highlight.name(), list.name())
                            .arg(test::contrastRatio(highlight, list))));
    QVERIFY2(test::contrastRatio(text, highlight) >= 4.5, qPrintable(text.name()));
    // What is drawn is that palette: the highlighted row's pixels are the highlight.
    const QModelIndex second = view->model()->index(1, 0);
    view->setCurrentIndex(second);
    const QImage shot = view->viewport()->grab().toImage();
    const QRect row = view->visualRect(second);
    const QColor drawn = shot.pixelColor(row.left() + 2, row.center().y());
    QVERIFY2(test::contrastRatio(drawn, list) >= 4.5, qPrintable(drawn.name()));
    box.hidePopup();
  }

  // Fusion asks the platform theme, and X11's generic theme says yes (pen and broom icons under Xvfb); the
  // offscreen platform says no, so here the style's own answer is what is checked.
  void dialogButtonsCarryNoIcons() {
    QCOMPARE(qApp->style()->styleHint(QStyle::SH_DialogButtonBox_ButtonsHaveIcons), 0);
    QDialogButtonBox buttons(QDialogButtonBox::Close | QDialogButtonBox::Reset | QDialogButtonBox::Save);
    for (QAbstractButton* b : buttons.buttons()) QVERIFY2(b->icon().isNull(), qPrintable(b->text()));
  }

  // Unchecked toggles in the View and Processing menus drew nothing where the check goes.
  void uncheckedMenuTogglesShowACheckBox() {
    QMenu menu;
    QAction* toggle = menu.addAction(QStringLiteral("Pixel Inspector"));
    toggle->setCheckable(true);
    menu.addAction(QStringLiteral("Reset Statistics"));  // not checkable: nothing there
    menu.popup(QPoint(0, 0));
    QVERIFY(QTest::qWaitForWindowExposed(&menu));
    const QImage shot = menu.grab().toImage();
    const auto indicatorArea = [&](int row) {
      const QRect r = menu.actionGeometry(menu.actions()[row]);
      QList<QRgb> pixels;
      for (int y = r.top() + 2; y < r.bottom() - 1; ++y)
        for (int x = r.left() + 2; x < r.left() + 20; ++x) pixels << shot.pixel(x, y);
      return pixels;
    };
    QVERIFY(indicatorArea(0) != indicatorArea(1));
    menu.close();
  }

  // Qt's own file dialog: the style sheet's tool-button padding (3px 8px) left its toolbar's icons (back,
  // forward, parent, new folder, list and detail view) as dots a few pixels wide (seen under Xvfb).
  void fileDialogToolbarIconsHaveRoom() {
    QFileDialog dialog(nullptr, QStringLiteral("Open"), QDir::tempPath());
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    int checked = 0;
    for (const char* name : {"backButton", "toParentButton", "newFolderButton", "detailModeButton"}) {
      auto* button = dialog.findChild<QToolButton*>(QString::fromLatin1(name));
      QVERIFY2(button, name);
      // The icon's pixels, far from the button's background: 117-228 of 676 drawn whole, 28-34 as dots.
      const QImage shot = button->grab().toImage();
      const QColor background = shot.pixelColor(3, shot.height() / 2);
      int iconPixels = 0;
      for (int y = 0; y < shot.height(); ++y)
        for (int x = 0; x < shot.width(); ++x) {
          const QColor c = shot.pixelColor(x, y);
          if (std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                  std::abs(c.blue() - background.blue()) >
              90)
            ++iconPixels;
        }
      QVERIFY2(iconPixels >= 80, qPrintable(QStringLiteral("%1: %2 icon pixels in %3×%4")
                                                .arg(QLatin1String(name))
                                                .arg(iconPixels)
                                                .arg(shot.width())
                                                .arg(shot.height())));
      ++checked;
    }
    QCOMPARE(checked, 4);
  }
};

CONVOLAB_GUI_TEST_MAIN(ThemeTest)
#include "test_theme.moc"
