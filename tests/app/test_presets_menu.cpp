// SPDX-License-Identifier: MIT
// The Presets menu: presets grouped under headings drawn as text (QMenu::addSection drew a bare separator in
// the app's style, so "My presets" was never labelled), each with its description as tooltip, and a
// thumbnail per preset made from the current frame off the GUI thread and cached per source.
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>
#include <QWidgetAction>
#include <cmath>
#include <map>

#include "app_test_support.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/preset_library.hpp"
#include "editor/preset_thumbnails.hpp"
#include "editor/presets_menu.hpp"
#include "editor_fixture.hpp"
#include "gui_test_main.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

/// A 160×90 frame with horizontal and vertical structure, so blurs and edge filters change it visibly.
std::shared_ptr<const Image> testFrame() {
  auto image = std::make_shared<Image>(160, 90);
  for (int y = 0; y < image->height; ++y)
    for (int x = 0; x < image->width; ++x)
      for (int c = 0; c < 3; ++c)
        image->pixels[static_cast<size_t>(y) * image->stride + x * 3 + c] =
            static_cast<std::uint8_t>(((x / 8 + y / 8) % 2) * 200 + c * 20);
  return image;
}

/// The headings of `menu`, in order: the text of its QWidgetAction labels.
QStringList headings(QMenu* menu) {
  QStringList out;
  for (QAction* a : menu->actions())
    if (auto* w = qobject_cast<QWidgetAction*>(a))
      if (auto* label = qobject_cast<QLabel*>(w->defaultWidget())) out << label->text();
  return out;
}

}  // namespace

class PresetsMenuTest : public QObject, protected test::EditorFixture {
  Q_OBJECT

 private:
  void rebuild() { QMetaObject::invokeMethod(m_editor->presetsMenu(), "aboutToShow"); }

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("presets-menu-test")); }

  void init() { openEditor(QStringLiteral("presets-menu"), /*show=*/false); }

  void cleanup() { closeEditor(); }

  void bundledPresetsAreGrouped() {
    QHash<QString, QString> group;
    for (const PresetEntry& e : m_presets->bundled()) {
      group.insert(QFileInfo(e.path).completeBaseName(), e.group);
      QVERIFY2(!e.description.isEmpty(), qPrintable(e.path));  // every bundled file says what it does
    }
    QCOMPARE(group.value("gaussian"), QStringLiteral("Blur"));
    QCOMPARE(group.value("unsharp_mask"), QStringLiteral("Sharpen"));
    QCOMPARE(group.value("sobel_x"), QStringLiteral("Edges"));
    QCOMPARE(group.value("emboss"), QStringLiteral("Emboss"));
    QCOMPARE(group.value("identity"), QStringLiteral("Other"));
    // A bundled file not in the table is placed by its weights.
    ChannelFilter box = ChannelFilter::identity(3);
    box.matrix.assign(9, 1);
    box.divisor = 9;
    QCOMPARE(bundledPresetGroup("new_blur", FilterSet::uniform(box, BorderMode::Reflect101)),
             QStringLiteral("Blur"));
    ChannelFilter edge = ChannelFilter::identity(3);
    edge.matrix = {0, 1, 0, 1, -4, 1, 0, 1, 0};
    QCOMPARE(bundledPresetGroup("new_edges", FilterSet::uniform(edge, BorderMode::Reflect101)),
             QStringLiteral("Edges"));
  }

  void headingsAreTextAndMyPresetsAreLabelled() {
    QVERIFY(m_editor->presetsMenu()->savePreset(QStringLiteral("Mine"), false));
    rebuild();
    QMenu* menu = m_editor->presetsMenu();
    QCOMPARE(headings(menu), (QStringList{"Blur", "Sharpen", "Edges", "Emboss", "Other", "My presets"}));
    // No heading is a separator carrying text (what addSection made), and each label has room for its text.
    for (QAction* a : menu->actions()) {
      QVERIFY2(!(a->isSeparator() && !a->text().isEmpty()), qPrintable(a->text()));
      if (auto* w = qobject_cast<QWidgetAction*>(a)) {
        auto* label = qobject_cast<QLabel*>(w->defaultWidget());
        QVERIFY(label->sizeHint().width() >= label->fontMetrics().horizontalAdvance(label->text()));
        QVERIFY(label->font().bold());
      }
    }
    // The user's preset sits under "My presets"; every preset carries its description as tooltip.
    const QList<QAction*> actions = menu->actions();
    qsizetype heading = -1, mine = -1;
    for (qsizetype i = 0; i < actions.size(); ++i) {
      if (headings(menu).contains(actions[i]->text()) && actions[i]->text() == QStringLiteral("My presets"))
        heading = i;
      if (actions[i]->text() == QStringLiteral("Mine")) mine = i;
      if (actions[i]->text() == QStringLiteral("Gaussian blur"))
        QCOMPARE(actions[i]->toolTip(),
                 QStringLiteral("7x7 binomial (Gaussian-like) blur; separable, rank 1."));
    }
    QVERIFY(heading >= 0 && mine == heading + 1);
    QVERIFY(menu->toolTipsVisible());
  }

  void thumbnailsAreMadeOffTheGuiThreadAndCached() {
    PresetThumbnails* thumbs = m_editor->presetsMenu()->thumbnails();
    std::shared_ptr<const Image> frame = testFrame();
    QString source = QStringLiteral("pattern:a");
    thumbs->setFrameProvider([&] { return PresetThumbnails::Frame{frame, source}; });
    QSignalSpy ready(thumbs, &PresetThumbnails::ready);
    rebuild();  // opening the menu asks for them
    QVERIFY(ready.wait(10000));
    const QList<PresetEntry> entries = m_presets->grouped();
    QString identity, gaussian;
    for (const PresetEntry& e : entries) {
      const QImage t = thumbs->thumbnail(e.path);
      QVERIFY2(!t.isNull(), qPrintable(e.path));
      QCOMPARE(t.size(), PresetThumbnails::kSize);
      if (e.path.endsWith(QStringLiteral("identity.json"))) identity = e.path;
      if (e.path.endsWith(QStringLiteral("gaussian.json"))) gaussian = e.path;
    }
    // Each thumbnail is its preset applied to the frame: identity is the downscale, a blur is not.
    const Image small = PresetThumbnails::sample(*frame, PresetThumbnails::kSize);
    const QImage expected = QImage(small.pixels.data(), small.width, small.height,
                                   static_cast<qsizetype>(small.stride), QImage::Format_RGB888)
                                .copy(QRect(QPoint(PresetThumbnails::kMargin, PresetThumbnails::kMargin),
                                            PresetThumbnails::kSize));
    QCOMPARE(thumbs->thumbnail(identity), expected);
    QVERIFY(thumbs->thumbnail(gaussian) != expected);
    // The menu's entries show them.
    for (QAction* a : m_editor->presetsMenu()->actions())
      if (!a->data().toString().isEmpty()) QVERIFY(!a->icon().isNull());

    // Opened again on the same source: the cache answers. Another source: made again.
    const int made = thumbs->generation();
    rebuild();
    QTest::qWait(50);
    QCOMPARE(thumbs->generation(), made);
    source = QStringLiteral("pattern:b");
    rebuild();
    QTRY_COMPARE(thumbs->generation(), made + 1);
  }

  // 33.9: thumbnails come from the most detailed square at the frame's scale, so blurs and sharpens differ
  // (from a shrunken smooth frame they looked the same); the loaded preset is marked.
  void thumbnailsShowDetailAndTheCurrentPresetIsMarked() {
    auto frame = std::make_shared<Image>(400, 300);
    for (int y = 0; y < frame->height; ++y)
      for (int x = 0; x < frame->width; ++x)
        for (int c = 0; c < 3; ++c)  // a smooth gradient, and fine texture in the bottom-right corner
          frame->pixels[static_cast<size_t>(y) * frame->stride + static_cast<size_t>(x) * 3 + c] =
              static_cast<uchar>(x > 330 && y > 230 ? 128 + 40 * std::sin(x * 0.9) * std::cos(y * 0.7)
                                                    : x * 255 / 400);
    const Image sample = PresetThumbnails::sample(*frame, PresetThumbnails::kSize);
    QCOMPARE(sample.width, PresetThumbnails::kSize.width() + 2 * PresetThumbnails::kMargin);
    std::map<QString, QImage> shown;
    for (const PresetEntry& e : m_presets->bundled())
      shown[QFileInfo(e.path).baseName()] = PresetThumbnails::render(sample, m_presets->load(e));
    const auto differ = [&](const QString& a, const QString& b) {
      int total = 0;
      for (int y = 0; y < PresetThumbnails::kSize.height(); ++y)
        for (int x = 0; x < PresetThumbnails::kSize.width(); ++x)
          total += std::abs(qGreen(shown[a].pixel(x, y)) - qGreen(shown[b].pixel(x, y)));
      return total / (PresetThumbnails::kSize.width() * PresetThumbnails::kSize.height());  // mean |Δ|
    };
    for (const QString& a :
         {QStringLiteral("box_blur"), QStringLiteral("gaussian"), QStringLiteral("sharpen"),
          QStringLiteral("unsharp_mask"), QStringLiteral("identity")})
      for (const QString& b :
           {QStringLiteral("box_blur"), QStringLiteral("gaussian"), QStringLiteral("sharpen"),
            QStringLiteral("unsharp_mask"), QStringLiteral("identity")})
        if (a < b)
          QVERIFY2(differ(a, b) >= 2, qPrintable(QStringLiteral("%1 vs %2: %3").arg(a, b).arg(differ(a, b))));

    for (const PresetEntry& e : m_presets->bundled())
      if (QFileInfo(e.path).baseName() == QLatin1String("sharpen"))
        QVERIFY(m_editor->presetsMenu()->loadPreset(e));
    m_doc->setCell(0, 0, 0, 1);  // edited: still the preset it came from
    rebuild();
    int marked = 0;
    for (QAction* a : m_editor->presetsMenu()->actions())
      if (a->isChecked()) {
        ++marked;
        QCOMPARE(QFileInfo(a->data().toString()).baseName(), QStringLiteral("sharpen"));
      }
    QCOMPARE(marked, 1);
  }

  void thumbnailsOfA1080pFrameAreCheap() {
    // All bundled presets from a 1920×1080 frame, on the thread: printed for docs/GUI.md, bounded loosely.
    PresetThumbnails thumbs;
    auto frame = std::make_shared<Image>(1920, 1080);
    thumbs.setFrameProvider([frame] { return PresetThumbnails::Frame{frame, QStringLiteral("big")}; });
    QSignalSpy ready(&thumbs, &PresetThumbnails::ready);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(thumbs.request(m_presets->bundled()));
    QVERIFY(ready.wait(10000));
    qInfo("%lld presets from 1920x1080: %lld ms", static_cast<long long>(m_presets->bundled().size()),
          static_cast<long long>(clock.elapsed()));
    QVERIFY(clock.elapsed() < 5000);
  }
};

CONVOLAB_GUI_TEST_MAIN(PresetsMenuTest)
#include "test_presets_menu.moc"
