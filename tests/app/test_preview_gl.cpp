// SPDX-License-Identifier: MIT
// The preview's OpenGL back-end paints what the raster one paints (±1, at 100 %, in split view, dimmed, and
// fitted), reports its paint time, and the preview falls back to raster when OpenGL is unusable. The pixel
// cases need an OpenGL context: under Xvfb (Mesa) they run, offscreen (no GL) they are skipped and the
// fallback is checked for real instead. While the GL path paints, each frame it presented asks the processing
// thread for one compute kick (a GPU device only; coalesced; none on the raster path).
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QSignalSpy>
#include <QTest>
#include <memory>

#include "app_test_support.hpp"
#include "convolab/device.hpp"
#include "gui_test_main.hpp"
#include "preview/preview_gl_canvas.hpp"
#include "preview/preview_renderer.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "processing/processing_worker.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

// A frame with detail in every pixel (gradients and a hash), so a shift by one pixel or a swapped channel
// shows; `seed` rotates the channels, so the split view's original (seed 2) differs from the filtered frame.
std::shared_ptr<Image> patternImage(int w, int h, int seed, std::size_t stride = 0) {
  auto image = std::make_shared<Image>(w, h, stride);
  for (int y = 0; y < h; ++y) {
    std::uint8_t* row = image->pixels.data() + static_cast<std::size_t>(y) * image->stride;
    for (int x = 0; x < w; ++x) {
      const unsigned hash = (static_cast<unsigned>(x) * 73856093u) ^ (static_cast<unsigned>(y) * 19349663u);
      row[3 * x + seed % 3] = static_cast<std::uint8_t>(x * 255 / w);
      row[3 * x + (seed + 1) % 3] = static_cast<std::uint8_t>(y * 255 / h);
      row[3 * x + (seed + 2) % 3] = static_cast<std::uint8_t>(hash >> 7);
    }
  }
  return image;
}

ProcessedFramePtr frameOf(int w, int h, std::uint64_t sequence = 1, std::size_t stride = 0) {
  auto frame = std::make_shared<ProcessedFrame>();
  frame->record.sequence = sequence;
  frame->record.filterRevision = 1;
  frame->filtered = patternImage(w, h, 1, stride);
  frame->original = patternImage(w, h, 2, stride);
  return frame;
}

// What the canvas shows, read back: the GL framebuffer, or the raster widget's grab.
QImage canvasPixels(PreviewWidget& preview) {
  if (auto* gl = qobject_cast<QOpenGLWidget*>(preview.canvas()))
    return gl->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
  return preview.canvas()->grab().toImage().convertToFormat(QImage::Format_RGB32);
}

struct Difference {
  int max = 0;
  double mean = 0;
  QPoint where;
};

// Per-channel difference of two same-size images, skipping pixels `skip` says are overlays.
Difference compare(const QImage& a, const QImage& b, const std::function<bool(int, int)>& skip = {}) {
  Difference d;
  double sum = 0;
  qint64 n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      if (skip && skip(x, y)) continue;
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      const int diff = std::max(
          {std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)), std::abs(qBlue(p) - qBlue(q))});
      sum += diff;
      ++n;
      if (diff > d.max) d.max = diff, d.where = {x, y};
    }
  d.mean = n ? sum / n : 0;
  return d;
}

QString describeGlFrame(const Difference& d) {
  return QStringLiteral("max %1 at (%2, %3), mean %4")
      .arg(d.max)
      .arg(d.where.x())
      .arg(d.where.y())
      .arg(d.mean);
}

}  // namespace

class PreviewGlTest : public QObject {
  Q_OBJECT

  std::unique_ptr<PreviewWidget> m_raster, m_gl;

  // Two previews of one size and frame, one per back-end; false when this display has no OpenGL.
  bool makePair(const QSize& size, const ProcessedFramePtr& frame) {
    m_raster = std::make_unique<PreviewWidget>(nullptr, QStringLiteral("raster"));
    m_gl = std::make_unique<PreviewWidget>(nullptr, QStringLiteral("opengl"));
    for (auto* p : {m_raster.get(), m_gl.get()}) {
      p->resize(size);
      p->setFrame(frame);
      p->setCurrentRevision(1);
      p->show();
      if (!QTest::qWaitForWindowExposed(p)) return false;
    }
    QTest::qWait(50);  // a GL canvas that cannot initialise falls back on the next turn of the event loop
    return m_gl->renderer() == PreviewRenderer::OpenGL;
  }

 private slots:
  void initTestCase() { convolab::test::prepareTestEnvironment(QStringLiteral("test_preview_gl")); }
  void cleanup() {
    m_raster.reset();
    m_gl.reset();
    qunsetenv("CONVOLAB_PREVIEW");
    qunsetenv("CONVOLAB_PREVIEW_GL_FAIL");
    qunsetenv("CONVOLAB_PREVIEW_GL_PBO");
    ProcessingWorker::setTestTreatDeviceAsGpu(false);
  }

  // At 100 % every frame pixel is one widget pixel: both back-ends show the frame's own values, whatever
  // the rows' padding (GL reads it through the unpack alignment, the row length, or row by row), through a
  // pixel buffer (CONVOLAB_PREVIEW_GL_PBO=1; Mesa's GL maps one) and from the image's memory
  // (CONVOLAB_PREVIEW_GL_PBO=0). 641 pixels: rows of 1923 bytes, which no alignment but 1 fits.
  void sameAsRasterAtFullSize_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("stride");
    const struct {
      const char* name;
      int w, h, stride;
    } cases[] = {{"packed", 301, 203, 301 * 3},
                 {"aligned to 8", 301, 203, 904},
                 {"row length 304", 301, 203, 912},
                 {"row by row", 301, 203, 910},
                 {"641x479 packed", 641, 479, 1923},
                 {"641x479 aligned to 8", 641, 479, 1928},
                 {"641x479 row length 642", 641, 479, 1926},
                 {"641x479 row by row", 641, 479, 1925}};
    for (const auto& c : cases)
      for (const bool pbo : {true, false})
        QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(
            QLatin1String(c.name), pbo ? QStringLiteral("pixel buffer") : QStringLiteral("client memory"))))
            << c.w << c.h << c.stride;
  }
  void sameAsRasterAtFullSize() {
    QFETCH(int, width);
    QFETCH(int, height);
    QFETCH(int, stride);
    const bool pbo = QString::fromLatin1(QTest::currentDataTag()).endsWith(QLatin1String("pixel buffer"));
    qputenv("CONVOLAB_PREVIEW_GL_PBO", pbo ? "1" : "0");
    // Odd sizes: centring would put the frame on half pixels without the pixel-grid rounding.
    const auto frame = frameOf(width, height, 1, static_cast<std::size_t>(stride));
    if (!makePair(QSize(width + 100, height + 87), frame)) QSKIP("no OpenGL context on this display");
    auto* canvas = qobject_cast<PreviewGlCanvas*>(m_gl->canvas());
    QVERIFY(canvas);
    m_raster->setFitToWindow(false);
    m_gl->setFitToWindow(false);
    const QImage raster = canvasPixels(*m_raster), gl = canvasPixels(*m_gl);
    // Mesa's GL maps buffers: the pixel buffer path runs where asked for (llvmpipe only when asked).
    QCOMPARE(canvas->uploadsThroughPixelBuffer(), pbo);
    const Difference d = compare(raster, gl);
    QVERIFY2(d.max <= 1, qPrintable(describeGlFrame(d)));
    // The frame's own pixels, not a scaled copy: the first and the last.
    const QPoint corner = m_gl->view().imageRect().topLeft().toPoint();
    const std::uint8_t* first = frame->filtered->pixels.data();
    QCOMPARE(gl.pixel(corner), qRgb(first[0], first[1], first[2]));
    const std::uint8_t* last =
        first + static_cast<std::size_t>(height - 1) * frame->filtered->stride + 3 * (width - 1);
    QCOMPARE(gl.pixel(corner + QPoint(width - 1, height - 1)), qRgb(last[0], last[1], last[2]));
  }

  // Left to itself the canvas uploads through a pixel buffer on a GPU's GL only: on a CPU rasteriser (Mesa's
  // llvmpipe here) that is one more copy of each frame and no DMA.
  void pixelBufferOnlyOnAGpu() {
    if (!makePair(QSize(401, 290), frameOf(301, 203))) QSKIP("no OpenGL context on this display");
    auto* canvas = qobject_cast<PreviewGlCanvas*>(m_gl->canvas());
    QVERIFY(canvas);
    QCOMPARE(canvas->uploadsThroughPixelBuffer(), !softwareRenderer(canvas->description()));
  }

  // Split view at 100 %: the original left of the divider, the filtered frame right of it. The divider, its
  // knob and the two labels are QPainter overlays (anti-aliased differently by the GL paint engine): skipped.
  void sameAsRasterInSplitView() {
    const auto frame = frameOf(301, 203);
    if (!makePair(QSize(401, 290), frame)) QSKIP("no OpenGL context on this display");
    for (auto* p : {m_raster.get(), m_gl.get()}) {
      p->setFitToWindow(false);
      p->setViewMode(ViewMode::Split);
      p->setSplitPosition(0.37);
    }
    const QRectF target = m_gl->view().imageRect();
    const double divider = m_gl->view().dividerX();
    const auto overlay = [&](int x, int y) {
      const double dx = std::abs(x + 0.5 - divider), dy = std::abs(y + 0.5 - target.center().y());
      return dx < 2 || (dx < 16 && dy < 16) || (y >= target.top() + 5 && y < target.top() + 45);
    };
    const QImage raster = canvasPixels(*m_raster), gl = canvasPixels(*m_gl);
    const Difference d = compare(raster, gl, overlay);
    QVERIFY2(d.max <= 1, qPrintable(describeGlFrame(d)));
    // Left of the divider the original frame, right of it the filtered one.
    const QPoint corner = target.topLeft().toPoint();
    const auto pixelOf = [](const Image& image, int x, int y) {
      const std::uint8_t* p = image.pixels.data() + static_cast<std::size_t>(y) * image.stride + 3 * x;
      return qRgb(p[0], p[1], p[2]);
    };
    QCOMPARE(gl.pixel(corner + QPoint(20, 180)), pixelOf(*frame->original, 20, 180));
    QCOMPARE(gl.pixel(corner + QPoint(280, 180)), pixelOf(*frame->filtered, 280, 180));
  }

  // Zoomed to 800 % (nearest, square pixels) with the pixel grid, panned, in both split orientations: the
  // same picture (the zoom pill at the top is an overlay: skipped). The frame reaches far past the widget.
  void sameAsRasterZoomedWithTheGrid_data() {
    QTest::addColumn<int>("split");
    QTest::newRow("filtered") << -1;
    QTest::newRow("split left / right") << 0;
    QTest::newRow("split top / bottom") << 1;
  }
  void sameAsRasterZoomedWithTheGrid() {
    QFETCH(int, split);
    const auto frame = frameOf(301, 203);
    if (!makePair(QSize(401, 290), frame)) QSKIP("no OpenGL context on this display");
    for (auto* p : {m_raster.get(), m_gl.get()}) {
      if (split >= 0) {
        p->setViewMode(ViewMode::Split);
        p->setSplitVertical(split == 1);
        p->setSplitPosition(0.5);
      }
      p->setZoom(8);
      // The divider (at the frame's centre, in view) and its knob are anti-aliased overlays: move it aside.
      p->setSplitPosition(0.503);
    }
    QVERIFY(m_gl->view().gridVisible());
    QCOMPARE(m_gl->view().imageRect(), m_raster->view().imageRect());
    const QLineF divider = m_gl->view().divider();
    const auto overlay = [&](int x, int y) {
      if (y < 45) return true;  // the "800 %" pill and the split labels
      if (split < 0) return false;
      // The divider and its knob; top / bottom, also the "FILTERED" label under the divider.
      if (split == 1) return y + 0.5 > divider.y1() - 16 && y + 0.5 < divider.y1() + 45;
      return std::abs(x + 0.5 - divider.x1()) < 16;
    };
    const QImage raster = canvasPixels(*m_raster), gl = canvasPixels(*m_gl);
    const Difference d = compare(raster, gl, overlay);
    QVERIFY2(d.max <= 1, qPrintable(describeGlFrame(d)));
    // Square 8×8 pixels: the frame's own value inside a cell, the grid on its first column.
    const QPoint cell = m_gl->view().pixelRect(QPoint(160, 110)).topLeft().toPoint();
    const std::uint8_t* px = frame->filtered->pixels.data() + 110 * frame->filtered->stride + 3 * 160;
    if (split != 1) QCOMPARE(gl.pixel(cell + QPoint(3, 5)), qRgb(px[0], px[1], px[2]));
    QVERIFY(gl.pixel(cell + QPoint(0, 5)) != gl.pixel(cell + QPoint(3, 5)));
  }

  // The overlays are painted over the GL frame: on screen and in QWidget::grab() (the docs' screenshots),
  // where a QPainter on the widget itself would be redirected under the frame.
  void overlaysAreOnTop() {
    if (!makePair(QSize(401, 290), frameOf(301, 203))) QSKIP("no OpenGL context on this display");
    for (auto* p : {m_raster.get(), m_gl.get()}) {
      p->setFitToWindow(false);
      p->setViewMode(ViewMode::Split);
    }
    const QRectF target = m_gl->view().imageRect();
    const QPoint onLine(static_cast<int>(m_gl->view().dividerX()), static_cast<int>(target.bottom()) - 20);
    // The raster path's divider (the theme's line colour over the frame) is where the GL path has it.
    const QRgb line = canvasPixels(*m_raster).pixel(onLine);
    QVERIFY(qGray(line) > 200);  // the line, not the frame under it
    for (const QImage& image : {canvasPixels(*m_gl), m_gl->grab().toImage()}) {
      const QRgb p = image.pixel(onLine);
      QVERIFY2(std::abs(qGray(p) - qGray(line)) <= 8, qPrintable(QString::number(p, 16)));
    }
    // The pills: anti-aliased edges and glyphs differ between the paint engines, the picture does not.
    const Difference d =
        compare(canvasPixels(*m_raster), m_gl->grab().toImage().convertToFormat(QImage::Format_RGB32));
    QVERIFY2(d.mean < 1.0, qPrintable(describeGlFrame(d)));
  }

  // A stale frame is dimmed in the shader as the raster path dims it with a translucent fill.
  void staleDimmingMatches() {
    if (!makePair(QSize(401, 290), frameOf(301, 203))) QSKIP("no OpenGL context on this display");
    for (auto* p : {m_raster.get(), m_gl.get()}) {
      p->setFitToWindow(false);
      p->setCurrentRevision(2);
    }
    QTRY_VERIFY_WITH_TIMEOUT(m_gl->isDimmed() && m_raster->isDimmed(), 2000);
    const QRectF target = m_gl->view().imageRect();
    const auto pill = [&](int, int y) { return y >= target.bottom() - 45; };  // the "Previous filter" pill
    const QImage raster = canvasPixels(*m_raster), gl = canvasPixels(*m_gl);
    const Difference d = compare(raster, gl, pill);
    QVERIFY2(d.max <= 1, qPrintable(describeGlFrame(d)));
    // Dimmed indeed: the right edge (green 254 there) reads darker.
    const QPoint edge = target.topLeft().toPoint() + QPoint(300, 150);
    QVERIFY2(qGreen(gl.pixel(edge)) < 200, qPrintable(QString::number(qGreen(gl.pixel(edge)))));
  }

  // Fitted (scaled down): both filter bilinearly; their rounding differs a little, not their picture.
  void fittedFrameIsClose() {
    if (!makePair(QSize(500, 340), frameOf(1280, 720))) QSKIP("no OpenGL context on this display");
    const QImage raster = canvasPixels(*m_raster), gl = canvasPixels(*m_gl);
    const Difference d = compare(raster, gl);
    qInfo("fitted 1280×720 into 484×324: %s", qPrintable(describeGlFrame(d)));
    QVERIFY2(d.mean < 1.5 && d.max <= 8, qPrintable(describeGlFrame(d)));
  }

  // Each paint that shows a new frame reports its time; repaints of the same frame do not.
  void paintTimeIsReported() {
    if (!makePair(QSize(401, 290), frameOf(301, 203))) QSKIP("no OpenGL context on this display");
    for (auto* p : {m_raster.get(), m_gl.get()}) {
      QSignalSpy timed(p, &PreviewWidget::displayTimed);
      QSignalSpy painted(p, &PreviewWidget::framePainted);
      p->setFrame(frameOf(301, 203, 2));
      QTRY_COMPARE(timed.count(), 1);
      QCOMPARE(painted.count(), 1);
      QVERIFY(timed.at(0).at(0).toDouble() > 0);
      p->setViewMode(ViewMode::Split);
      QTest::qWait(100);
      QCOMPARE(timed.count(), 1);
    }
  }

  // The pixel inspector asks for its overlay with a plain update() of the preview: the canvas over it
  // repaints.
  void updateOfThePreviewRepaintsTheCanvas() {
    makePair(QSize(401, 290), frameOf(301, 203));
    for (auto* p : {m_raster.get(), m_gl.get()}) {
      int overlays = 0;
      p->setOverlayPainter([&overlays](QPainter&, const QRectF&) { ++overlays; });
      QTRY_VERIFY(overlays > 0);
      const int before = overlays;
      p->update();
      QTRY_VERIFY2(overlays > before, qPrintable(rendererName(p->renderer())));
      p->setOverlayPainter({});
    }
  }

  // No OpenGL context at all (the offscreen platform): raster, with the reason for people.
  void fallsBackWithoutAContext() {
    PreviewWidget preview(nullptr, QStringLiteral("opengl"));
    if (QOpenGLContext().create()) QSKIP("this display has OpenGL (the forced failure is checked below)");
    QCOMPARE(preview.renderer(), PreviewRenderer::Raster);
    QVERIFY2(preview.rendererDescription().contains(QStringLiteral("no OpenGL context")),
             qPrintable(preview.rendererDescription()));
  }

  // OpenGL fails when its canvas initialises (forced here): the preview swaps in the raster canvas, says
  // why, and keeps showing the frame.
  void fallsBackWhenOpenGlFails() {
    qputenv("CONVOLAB_PREVIEW_GL_FAIL", "1");
    const auto frame = frameOf(301, 203);
    PreviewWidget preview(nullptr, QStringLiteral("opengl"));
    QSignalSpy changed(&preview, &PreviewWidget::rendererChanged);
    preview.resize(401, 290);
    preview.setFitToWindow(false);
    preview.setFrame(frame);
    preview.show();
    QVERIFY(QTest::qWaitForWindowExposed(&preview));
    QTRY_COMPARE(preview.renderer(), PreviewRenderer::Raster);
    QVERIFY(qobject_cast<QOpenGLWidget*>(preview.canvas()) == nullptr);
    QVERIFY2(preview.rendererDescription().startsWith(QStringLiteral("Raster")),
             qPrintable(preview.rendererDescription()));
    const QPoint corner = preview.view().imageRect().topLeft().toPoint();
    const std::uint8_t* first = frame->filtered->pixels.data();
    QTRY_COMPARE(canvasPixels(preview).pixel(corner), qRgb(first[0], first[1], first[2]));
  }

  // Auto leaves a software OpenGL (Mesa's llvmpipe under Xvfb) to the raster path, slower there; asked for by
  // name it is used, and once its canvas is up the description names version and renderer.
  void autoSkipsSoftwareOpenGl() {
    QOpenGLContext context;
    QOffscreenSurface surface;
    if (!context.create()) QSKIP("no OpenGL context on this display");
    surface.setFormat(context.format());
    surface.create();
    QVERIFY(context.makeCurrent(&surface));
    const QString renderer =
        QString::fromLatin1(reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER)));
    context.doneCurrent();
    if (!renderer.contains(QLatin1String("llvmpipe"))) QSKIP("OpenGL is not Mesa's llvmpipe here");
    PreviewWidget automatic(nullptr, QStringLiteral("auto"));
    QCOMPARE(automatic.renderer(), PreviewRenderer::Raster);
    QVERIFY2(automatic.rendererDescription().contains(QStringLiteral("software")),
             qPrintable(automatic.rendererDescription()));
    PreviewWidget asked(nullptr, QStringLiteral("opengl"));
    QSignalSpy changed(&asked, &PreviewWidget::rendererChanged);
    asked.show();
    QVERIFY(QTest::qWaitForWindowExposed(&asked));
    QTRY_VERIFY(changed.count() > 0);
    QCOMPARE(asked.renderer(), PreviewRenderer::OpenGL);
    QVERIFY2(asked.rendererDescription().startsWith(QStringLiteral("OpenGL ")) &&
                 asked.rendererDescription().contains(QLatin1String("llvmpipe")),
             qPrintable(asked.rendererDescription()));
  }

  // The compute kick (convolab::ComputeKick, the GL -> CL switch off the next frame's path): with the OpenGL
  // preview and a GPU device (PoCL's CPU device stands for one through the worker's test hook), every frame
  // the GL canvas presented asks the processing thread for one kick; with a CPU device none.
  void computeKickAfterEachPresentedGlFrame() {
    ProcessingWorker::setTestTreatDeviceAsGpu(true);
    qputenv("CONVOLAB_PREVIEW", "opengl");
    MainWindow window(test::launchOptions(QStringLiteral("pattern:320x240@30")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(50);  // a GL canvas that cannot initialise falls back on the next turn of the event loop
    if (window.preview()->renderer() != PreviewRenderer::OpenGL) QSKIP("no OpenGL context on this display");
    auto* gl = qobject_cast<QOpenGLWidget*>(window.preview()->canvas());
    QVERIFY(gl);
    QVERIFY(convolab::test::waitForFrame(window, 0));
    Pipeline* pipeline = window.pipeline();
    // Live: frames keep coming, the canvas presents them, kicks follow (one per presented frame, fewer only
    // where two presents came before the processing thread ran the first request).
    QSignalSpy swapped(gl, &QOpenGLWidget::frameSwapped);
    const std::uint64_t liveStart = pipeline->computeKicks();
    QTRY_VERIFY_WITH_TIMEOUT(swapped.count() >= 10, 10000);
    QTRY_VERIFY(pipeline->computeKicks() - liveStart >= 5);
    // Held still (the processing thread idle): exactly one kick per presented frame.
    pipeline->setPaused(true);
    QTest::qWait(200);
    swapped.clear();
    const std::uint64_t kicks = pipeline->computeKicks();
    for (int i = 1; i <= 5; ++i) {
      window.preview()->update();
      QTRY_VERIFY(swapped.count() >= i);
      QTRY_COMPARE(pipeline->computeKicks() - kicks, static_cast<std::uint64_t>(swapped.count()));
    }
    // A CPU device (the hook off, PoCL as it is): presented frames ask for nothing.
    ProcessingWorker::setTestTreatDeviceAsGpu(false);
    const std::uint64_t cpuKicks = pipeline->computeKicks();
    const int cpuSwaps = swapped.count();
    for (int i = 1; i <= 3; ++i) {
      window.preview()->update();
      QTRY_VERIFY(swapped.count() >= cpuSwaps + i);
    }
    QTest::qWait(100);
    QCOMPARE(pipeline->computeKicks(), cpuKicks);
  }

  // The raster path presents no GL frame: no kick, even on a GPU device.
  void noComputeKickOnTheRasterPath() {
    ProcessingWorker::setTestTreatDeviceAsGpu(true);
    qputenv("CONVOLAB_PREVIEW", "raster");
    MainWindow window(test::launchOptions(QStringLiteral("pattern:320x240@30")));
    QSignalSpy painted(window.preview(), &PreviewWidget::framePainted);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.preview()->renderer(), PreviewRenderer::Raster);
    QTRY_VERIFY_WITH_TIMEOUT(painted.count() >= 10, 20000);
    QCOMPARE(window.pipeline()->computeKicks(), 0u);
  }

  // Requests coalesce: any number asked for before the processing thread runs make one kick (the worker
  // lives on this thread here, so its queued half runs only when this test lets events through); none is
  // asked for on a CPU device.
  void computeKickRequestsCoalesce() {
    ProcessingWorker worker(std::make_shared<capture::LatestFrameSlot>(), std::make_shared<FilterMailbox>(),
                            std::make_shared<capture::StagingStorage>());
    QSignalSpy ready(&worker, &ProcessingWorker::engineReady);
    worker.initialise(QString(), StrategyId{std::string("naive")});
    QCOMPARE(ready.count(), 1);
    const std::string spec = ready.at(0).at(1).toString().toStdString();
    bool gpu = false;
    for (const auto& d : listDevices()) gpu = gpu || (d.spec() == spec && d.isGpu);
    for (int i = 0; i < 5; ++i) worker.requestComputeKick();
    QTest::qWait(50);
    QCOMPARE(worker.computeKicks(), gpu ? 1u : 0u);  // PoCL's CPU device: nothing to hide
    if (gpu) QSKIP("the device is a GPU: the CPU case cannot run here");
    ProcessingWorker::setTestTreatDeviceAsGpu(true);
    for (int i = 0; i < 5; ++i) worker.requestComputeKick();
    QCOMPARE(worker.computeKicks(), 0u);  // queued, not run on the caller's stack
    QTRY_COMPARE(worker.computeKicks(), 1u);
    QTest::qWait(50);
    QCOMPARE(worker.computeKicks(), 1u);
    worker.requestComputeKick();
    QTRY_COMPARE(worker.computeKicks(), 2u);
    worker.shutdown();
    worker.requestComputeKick();
    QTest::qWait(50);
    QCOMPARE(worker.computeKicks(), 2u);  // no device any more
  }

  // CONVOLAB_PREVIEW wins over the setting.
  void environmentChoosesTheBackEnd() {
    qputenv("CONVOLAB_PREVIEW", "raster");
    PreviewWidget preview(nullptr, QStringLiteral("opengl"));
    QCOMPARE(preview.renderer(), PreviewRenderer::Raster);
    QCOMPARE(preview.rendererDescription(), QStringLiteral("Raster (QPainter)"));
  }
};

CONVOLAB_GUI_TEST_MAIN(PreviewGlTest)
#include "test_preview_gl.moc"
