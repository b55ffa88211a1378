// SPDX-License-Identifier: MIT
// The pixel inspector: hovering reports the output pixel that the saved frame holds, and the spelled-out
// weighted sum gives the same value.
#include <QCheckBox>
#include <QDir>
#include <QMouseEvent>
#include <QSettings>
#include <QTest>

#include "app_test_support.hpp"
#include "chain/chain_controller.hpp"
#include "chain/chain_dock.hpp"
#include "chain/chain_panel.hpp"
#include "convolab/border.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/reference.hpp"
#include "cv/image_codec.hpp"
#include "editor/filter_document.hpp"
#include "gui_test_main.hpp"
#include "lab/lab_controller.hpp"
#include "lab/pixel_inspector.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;
namespace lab = convolab::lab;

namespace {

ChainStep wrapped(std::vector<double> matrix, double divisor) {
  return ChainStep::single(
      FilterSet::uniform(ChannelFilter{3, std::move(matrix), divisor, 0}, BorderMode::Wrap));
}

// The chain is on screen: the newest frame was made with it (its output is the reference's).
bool inspectorShowsChain(MainWindow& window, const FilterChain& chain) {
  return test::waitForFrameWhere(
             window,
             [&](const ProcessedFrame& f) {
               if (!f.record.hasTimings || f.record.stale ||
                   f.record.filterRevision != window.pipeline()->filterRevision())
                 return false;
               Image expected(f.original->width, f.original->height);
               referenceChain(f.original->view(), expected.mutableView(), chain);
               return test::maxAbsDiff(*f.filtered, expected) <= 1;
             },
             60000) != nullptr;
}

}  // namespace

class LabInspectorTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("lab-inspector-test")); }

  void modifiersPickChannels() {
    QCOMPARE(lab::PixelInspector::channelFor(Qt::NoModifier), -1);
    QCOMPARE(lab::PixelInspector::channelFor(Qt::ShiftModifier), 0);
    QCOMPARE(lab::PixelInspector::channelFor(Qt::ShiftModifier | Qt::ControlModifier), 1);
    QCOMPARE(lab::PixelInspector::channelFor(Qt::ShiftModifier | Qt::AltModifier), 2);
  }

  void outputEqualsTheSavedFramePixel() {
    const QString filterPath = QDir(QDir::homePath()).filePath(QStringLiteral("distinct.json"));
    const FilterSet filter = test::distinctChannelsFilter();
    saveFilterFile(filterPath.toStdString(), filter, true);
    LaunchOptions o;
    o.source = test::dataFile(QStringLiteral("coffee.png"));
    o.filter = filterPath;
    o.strategy = QStringLiteral("naive");
    MainWindow window(o);
    window.resize(1200, 800);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    QTRY_VERIFY(window.preview()->frame() != nullptr);
    lab::PixelInspector* inspector = window.lab()->inspector();
    QVERIFY(inspector);

    const QString saved = window.saveFrameNow(QDir::homePath() + QStringLiteral("/frames"));
    QVERIFY(!saved.isEmpty());
    const Image png = opencv::loadImage(saved.toStdString());
    // The saved frame is the full-resolution filter output (a still source: every frame is the same).
    QCOMPARE(png.width, 600);
    QCOMPARE(png.height, 400);
    QCOMPARE(test::maxAbsDiff(png, *window.preview()->frame()->filtered), 0);

    for (const QPoint pos : {QPoint(0, 0), QPoint(123, 45), QPoint(png.width - 1, png.height - 1)}) {
      for (int c = 0; c < 3; ++c) {
        const auto probe = inspector->inspect(pos, c);
        QVERIFY(probe);
        for (int k = 0; k < 3; ++k) QCOMPARE(probe->output[k], int(png.view().row(pos.y())[pos.x() * 3 + k]));
        QVERIFY2(std::abs(probe->expected - probe->output[c]) <= 1,
                 qPrintable(QStringLiteral("%1 vs %2").arg(probe->expected).arg(probe->output[c])));
        QCOMPARE(static_cast<int>(probe->neighbours.size()), filter.size() * filter.size());
      }
    }

    // Hovering the middle of the preview with Shift: status line and the neighbourhood panel.
    PreviewWidget* preview = window.preview();
    const QPointF centre = QRectF(preview->rect()).center();
    const QPoint framePos = preview->framePosition(centre);
    QVERIFY(framePos.x() >= 0);
    QMouseEvent move(QEvent::MouseMove, centre, preview->mapToGlobal(centre), Qt::NoButton, Qt::NoButton,
                     Qt::ShiftModifier);
    QApplication::sendEvent(preview, &move);
    QVERIFY(
        inspector->statusText().contains(QStringLiteral("x %1, y %2").arg(framePos.x()).arg(framePos.y())));
    QVERIFY(inspector->lastProbe());
    QCOMPARE(inspector->lastProbe()->channel, 0);
    QVERIFY(!preview->grab().isNull());  // paints the overlay
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(preview, &leave);
    QVERIFY(inspector->statusText().isEmpty());
  }

  // 33.4: the line follows a new frame and a zoom under a still pointer (it kept the last move's values).
  void theLineFollowsNewFramesAndZoomUnderAStillPointer() {
    MainWindow window(test::launchOptions(test::dataFile(QStringLiteral("coffee.png"))));
    window.resize(1200, 800);
    window.show();
    QVERIFY(test::waitForFrame(window, window.pipeline()->filterRevision()));
    lab::PixelInspector* inspector = window.lab()->inspector();
    PreviewWidget* preview = window.preview();
    const QPointF at =
        QRectF(preview->rect()).center() + QPointF(preview->width() / 5.0, preview->height() / 6.0);
    QMouseEvent move(QEvent::MouseMove, at, preview->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(preview, &move);
    QVERIFY(inspector->lastProbe());

    // A new filter (out = in / 2) reaches the screen: the line shows its output without a pointer move.
    ChannelFilter half = ChannelFilter::identity(7);
    half.divisor = 2;
    window.document()->replace(FilterSet::uniform(half, BorderMode::Reflect101, "Half"), QStringLiteral("t"));
    const auto halved = [&] {
      const auto& p = inspector->lastProbe();
      if (!p) return false;
      for (int c = 0; c < 3; ++c)
        if (std::abs(p->output[c] - p->input[c] / 2.0) > 0.5) return false;
      return true;
    };
    QTRY_VERIFY2(halved(), qPrintable(inspector->statusText()));

    // Zoom about the centre: another frame pixel is under the still pointer.
    const QPoint before = preview->framePosition(at);
    preview->setZoom(8.0);
    const QPoint now = preview->framePosition(at);
    QVERIFY(now != before && now.x() >= 0);
    QVERIFY2(inspector->statusText().contains(QStringLiteral("x %1, y %2").arg(now.x()).arg(now.y())),
             qPrintable(inspector->statusText()));
  }

  // Under a wrap border the step's window reads the far side of the frame; its input is computed there only,
  // through the two steps before it: at a corner of the 600×400 frame, 54 pixel values (the last step's 3×3
  // window and the 5×5 it depends on in the shown channel, the pixel and its 3×3 in the other two), where the
  // whole frame the inspector once computed for wrap is 1,440,000. A probe too costly for the GUI thread
  // (here: any) is computed on the inspector's thread while the line says so, and gives the same answer.
  void aWrapChainProbeComputesOnlyWhatThePixelNeedsOffTheGuiThreadWhenCostly() {
    QSettings().remove(QStringLiteral("chain"));
    LaunchOptions o;
    o.source = test::dataFile(QStringLiteral("coffee.png"));
    o.strategy = QStringLiteral("naive");
    MainWindow window(o);
    window.resize(1200, 800);
    window.show();
    const ChainStep blur = wrapped({1, 2, 1, 2, 4, 2, 1, 2, 1}, 16);
    const FilterChain chain = FilterChain::make({blur, blur, wrapped({0, -1, 0, -1, 5, -1, 0, -1, 0}, 1)});
    auto* dock = window.findChild<ChainDock*>();
    dock->controller()->load(chain);
    dock->panel()->onSwitch()->setChecked(true);
    QVERIFY(inspectorShowsChain(window, chain));
    lab::PixelInspector* inspector = window.lab()->inspector();
    const ProcessedFramePtr frame = window.preview()->frame();
    const Image& original = *frame->original;
    Image blurred(original.width, original.height);
    referenceChain(original.view(), blurred.mutableView(), FilterChain::make({blur, blur}));
    const auto at = [&](const Image& image, int x, int y, int c) {
      return int(image.view().row(borderInterpolate(
          y, image.height, BorderMode::Wrap))[borderInterpolate(x, image.width, BorderMode::Wrap) * 3 + c]);
    };
    const int w = original.width, h = original.height;
    for (const QPoint pos : {QPoint(0, 0), QPoint(w - 1, 0), QPoint(0, h - 1), QPoint(w - 1, h - 1),
                             QPoint(w / 2, 0), QPoint(0, h / 2), QPoint(w / 2, h / 2)})
      for (int c = 0; c < 3; ++c) {
        const auto probe = inspector->inspect(pos, c);
        QVERIFY(probe);
        QCOMPARE(probe->step, 3);
        QCOMPARE(probe->evaluated, std::uint64_t{9 + 25 + 2 * (1 + 9)});
        for (int k = 0; k < 3; ++k) QCOMPARE(probe->input[k], at(blurred, pos.x(), pos.y(), k));
        for (int j = 0; j < 3; ++j)
          for (int i = 0; i < 3; ++i)
            QCOMPARE(probe->neighbours[static_cast<std::size_t>(j * 3 + i)],
                     double(at(blurred, pos.x() + i - 1, pos.y() + j - 1, c)));
        QCOMPARE(probe->expected, at(*frame->filtered, pos.x(), pos.y(), c));  // integer weights: exact
      }

    inspector->setGuiThreadWork(0);
    PreviewWidget* preview = window.preview();
    const QPointF centre = QRectF(preview->rect()).center();
    const QPoint framePos = preview->framePosition(centre);
    QMouseEvent move(QEvent::MouseMove, centre, preview->mapToGlobal(centre), Qt::NoButton, Qt::NoButton,
                     Qt::ShiftModifier | Qt::ControlModifier);
    QApplication::sendEvent(preview, &move);
    QVERIFY(inspector->computing());
    QVERIFY2(inspector->statusText().contains(QStringLiteral("step 3: computing its input")),
             qPrintable(inspector->statusText()));
    QVERIFY(inspector->lastProbe()->neighbours.empty());
    QTRY_VERIFY_WITH_TIMEOUT(!inspector->computing(), 30000);
    QVERIFY2(inspector->statusText().contains(QStringLiteral("step 3, from its input")),
             qPrintable(inspector->statusText()));
    const auto now = inspector->inspect(framePos, 1);  // on the GUI thread
    const auto& shown = inspector->lastProbe();
    QCOMPARE(shown->channel, 1);
    QCOMPARE(shown->neighbours, now->neighbours);
    QCOMPARE(shown->input, now->input);
    QCOMPARE(shown->expected, now->expected);
    QCOMPARE(shown->evaluated, std::uint64_t{9 + 25 + 2 * (1 + 9)});

    // Two moves in a row: the first pixel's job is stopped or its answer dropped; the line ends on the
    // second.
    for (const QPointF d : {QPointF(37, 21), QPointF(-45, 13)}) {
      QMouseEvent again(QEvent::MouseMove, centre + d, preview->mapToGlobal(centre + d), Qt::NoButton,
                        Qt::NoButton, Qt::ShiftModifier);
      QApplication::sendEvent(preview, &again);
    }
    const QPoint last = preview->framePosition(centre + QPointF(-45, 13));
    QTRY_VERIFY_WITH_TIMEOUT(!inspector->computing(), 30000);
    QCOMPARE(QPoint(inspector->lastProbe()->x, inspector->lastProbe()->y), last);
    QCOMPARE(inspector->lastProbe()->channel, 0);
    QCOMPARE(inspector->lastProbe()->neighbours, inspector->inspect(last, 0)->neighbours);
  }
};

CONVOLAB_GUI_TEST_MAIN(LabInspectorTest)
#include "test_lab_inspector.moc"
