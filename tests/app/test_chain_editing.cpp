// SPDX-License-Identifier: MIT
// The Chain dock as an editor (issue 30's app): the Filter editor edits the selected step (and the running
// chain at once), undo/redo cover every chain edit, drag reorders, "show up to here" previews a step's
// output, and each step has a live thumbnail.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include "app_test_support.hpp"
#include "chain/chain_controller.hpp"
#include "chain/chain_dock.hpp"
#include "chain/chain_panel.hpp"
#include "chain/step_editing.hpp"
#include "chain/step_thumbnails.hpp"
#include "chain_test_support.hpp"
#include "convolab/reference.hpp"
#include "editor/filter_document.hpp"
#include "gui_test_main.hpp"
#include "lab/kernel_source_dialog.hpp"
#include "lab/lab_controller.hpp"
#include "lab/pixel_inspector.hpp"
#include "preview/preview_widget.hpp"
#include "processing/pipeline.hpp"
#include "window/main_window.hpp"

using namespace convolab;
using namespace convolab::gui;

namespace {

using test::blur;
using test::sharpen;
using test::step3x3;
using test::waitForChain;

/// A controller, a document and the editing between them, as the Chain dock wires them, without a window.
struct Bench {
  FilterDocument document;
  ChainController controller;
  ChainPanel panel{&controller, [this] { return document.filter(); }, nullptr};
  StepEditing editing{&controller, &document};
  Bench() {
    controller.setUndoStack(document.undoStack());
    QObject::connect(&panel, &ChainPanel::stepSelected, &editing, &StepEditing::edit);
    QObject::connect(&editing, &StepEditing::editedChanged, &panel,
                     [this](int row, int part) { panel.selectStep(row, part); });
    document.setLinked(true);
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const ChainStep& s : controller.steps()) out.push_back(s.filter.name());
    return out;
  }
};

}  // namespace

class ChainEditingTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { test::prepareTestEnvironment(QStringLiteral("chain-editing-test")); }

  void theEditorEditsTheSelectedStepAndGetsItsOwnBack() {
    Bench b;
    QVERIFY(b.controller.append(blur()).isEmpty());
    QVERIFY(b.controller.append(sharpen()).isEmpty());
    QVERIFY(b.document.setAutoNormalise(0, true));  // the editor's own Normalise: not the step's
    const FilterSet own = b.document.filter();
    b.panel.list()->setCurrentRow(1);
    QCOMPARE(b.editing.editedIndex(), 1);
    QCOMPARE(b.document.filter(), toEditorSize(sharpen().filter));  // the step, in the editor's 7×7
    QVERIFY(b.document.setCell(0, 3, 3, 6));                        // the centre: the step's (1, 1)
    const FilterSet& edited = b.controller.steps()[1].filter;
    QCOMPARE(edited.size(), 3);  // cut back to the step's size: the same output
    QCOMPARE(edited.channel(2).matrix[4], 6.0);
    QCOMPARE(edited.channel(0).divisor, 1.0);   // not normalised to Σ = 2
    QCOMPARE(b.controller.steps()[0], blur());  // the other step is untouched
    b.document.setCell(0, 0, 0, 1);             // a weight outside 3×3: the step grows to keep it
    QCOMPARE(b.controller.steps()[1].filter.size(), 7);
    b.panel.list()->setCurrentRow(-1);  // none selected: the editor's own filter again
    QCOMPARE(b.editing.editedIndex(), -1);
    QCOMPARE(b.document.filter(), own);
    QVERIFY(b.document.autoNormalise(2));     // its Normalise back
    QVERIFY(b.document.setCell(0, 3, 3, 2));  // and edits are its own again
    QCOMPARE(b.controller.steps()[1].filter.size(), 7);
    QCOMPARE(b.document.filter().channel(0).matrix[24], 2.0);
  }

  void aMagnitudeStepEditsEitherFilterWithOneBorder() {
    const FilterSet gx = FilterSet::uniform(ChannelFilter{3, {-1, 0, 1, -2, 0, 2, -1, 0, 1}, 1, 0},
                                            BorderMode::Reflect101, "Gx");
    const FilterSet gy = FilterSet::uniform(ChannelFilter{3, {-1, -2, -1, 0, 0, 0, 1, 2, 1}, 1, 0},
                                            BorderMode::Reflect101, "Gy");
    Bench b;
    QVERIFY(b.controller.append(ChainStep::magnitude(gx, gy)).isEmpty());
    b.panel.list()->setCurrentRow(0);
    QVERIFY(b.panel.partBox()->isVisibleTo(&b.panel));
    QCOMPARE(b.document.filter(), toEditorSize(gx));
    b.panel.selectStep(0, 1);  // the box: its second filter
    QCOMPARE(b.editing.editedPart(), 1);
    QCOMPARE(b.document.filter(), toEditorSize(gy));
    QVERIFY(b.document.setCell(0, 3, 3, 5));
    QCOMPARE(b.controller.steps()[0].other->channel(0).matrix[4], 5.0);
    QCOMPARE(b.controller.steps()[0].filter, gx);
    QVERIFY(b.document.setBorder(BorderMode::Replicate));  // one input read: both filters take the border
    QCOMPARE(b.controller.steps()[0].filter.border(), BorderMode::Replicate);
    QCOMPARE(b.controller.steps()[0].other->border(), BorderMode::Replicate);
    QVERIFY(b.controller.chain());  // still a valid chain
    b.document.undoStack()->undo();
    b.document.undoStack()->undo();
    QCOMPARE(b.controller.steps()[0], ChainStep::magnitude(gx, gy));
  }

  void undoAndRedoCoverEveryChainEdit() {
    Bench b;
    QUndoStack* undo = b.document.undoStack();
    std::vector<ChainController::Snapshot> states{b.controller.snapshot()};
    auto did = [&](int expectedCount) {
      states.push_back(b.controller.snapshot());
      return undo->count() == expectedCount;
    };
    QVERIFY(b.controller.append(blur("a")).isEmpty());
    QVERIFY(did(1));
    QVERIFY(b.controller.append(sharpen("b")).isEmpty());
    QVERIFY(did(2));
    b.controller.move(1, -1);
    QVERIFY(did(3));
    b.panel.list()->item(0)->setCheckState(Qt::Unchecked);  // the check box: switch off
    QVERIFY(did(4));
    b.panel.list()->setCurrentRow(1);
    const int key = b.document.beginCellEdit();  // one cell's keystrokes: one undo step
    QVERIFY(b.document.setCell(0, 3, 3, 5, nullptr, key));
    QVERIFY(b.document.setCell(0, 3, 3, 9, nullptr, key));
    QVERIFY(did(5));
    QCOMPARE(undo->undoText(), QStringLiteral("Step 2: Set RGB[4, 4] = 9"));
    b.panel.list()->setCurrentRow(0);  // another step selected: undo goes back to the edited one
    b.panel.removeSelected();
    QVERIFY(did(6));
    QCOMPARE(b.names(), std::vector<std::string>{"a"});
    for (int i = 5; i >= 0; --i) {
      undo->undo();
      QCOMPARE(b.controller.snapshot(), states[static_cast<std::size_t>(i)]);
      if (i == 4) {  // the step edit undone: the editor shows that step, as it was
        QCOMPARE(b.editing.editedIndex(), 1);
        QCOMPARE(b.document.filter().channel(0).matrix[24], 4.0);
      }
    }
    for (int i = 1; i <= 6; ++i) {
      undo->redo();
      QCOMPARE(b.controller.snapshot(), states[static_cast<std::size_t>(i)]);
    }
  }

  void undoingTheEditorsOwnEditEndsTheStepEditing() {
    Bench b;
    QVERIFY(b.controller.append(blur()).isEmpty());
    const FilterSet before = b.document.filter();
    QVERIFY(b.document.setCell(0, 0, 0, 3));  // the editor's own filter
    b.panel.list()->setCurrentRow(0);
    QCOMPARE(b.editing.editedIndex(), 0);
    b.document.undoStack()->undo();  // the own edit: the editor holds its own filter again
    QCOMPARE(b.editing.editedIndex(), -1);
    QCOMPARE(b.panel.list()->currentRow(), -1);
    QCOMPARE(b.document.filter(), before);
    QCOMPARE(b.controller.steps()[0], blur());  // the step never saw the editor's filter
  }

  void dragReordersAndUndoPutsItBack() {
    Bench b;
    for (const char* name : {"a", "b", "c"}) QVERIFY(b.controller.append(blur(name)).isEmpty());
    // What QListWidget does on an internal drop: the row moves in its model
    QVERIFY(b.panel.list()->model()->moveRow(QModelIndex(), 0, QModelIndex(), 3));
    QTRY_COMPARE(b.names(), (std::vector<std::string>{"b", "c", "a"}));
    QCOMPARE(b.panel.list()->item(2)->text(), QStringLiteral("3. filter: a"));
    QCOMPARE(b.panel.list()->currentRow(), 2);
    b.document.undoStack()->undo();
    QCOMPARE(b.names(), (std::vector<std::string>{"a", "b", "c"}));
  }

  void showUpToHerePreviewsTheChainAfterThatStep() {
    auto window = test::openChainWindow();
    ChainDock* dock = window->findChild<ChainDock*>();
    ChainController* chain = dock->controller();
    dock->show();
    dock->raise();  // in front of the Filter tab: its thumbnails are made while it shows
    QVERIFY(chain->append(sharpen()).isEmpty());
    QVERIFY(chain->append(blur()).isEmpty());
    QVERIFY(chain->append(step3x3("edge", {-1, -1, -1, -1, 8, -1, -1, -1, -1})).isEmpty());
    dock->panel()->onSwitch()->setChecked(true);
    QVERIFY(waitForChain(*window, *chain->chain()));
    dock->panel()->list()->setCurrentRow(1);
    dock->panel()->upToButton()->click();
    QCOMPARE(chain->shownUpTo(), 1);
    QVERIFY(dock->panel()->list()->item(1)->text().contains(QStringLiteral("the preview ends here")));
    QCOMPARE(window->pipeline()->chain().size(), 2);
    QVERIFY(waitForChain(*window, FilterChain::make({sharpen(), blur()})));
    // It follows its step through a move, and the step's edits reach the preview at once
    chain->move(1, -1);
    QCOMPARE(chain->shownUpTo(), 0);
    QCOMPARE(window->pipeline()->chain().size(), 1);
    QCOMPARE(dock->stepEditing()->editedIndex(), 0);  // the selected step, moved with it
    QVERIFY(window->findChild<FilterDocument*>()->setCell(0, 3, 3, 8));
    QCOMPARE(window->pipeline()->chain().steps()[0], chain->steps()[0]);
    QVERIFY(waitForChain(*window, FilterChain::make({chain->steps()[0]})));
    dock->panel()->upToButton()->click();  // off: the whole chain again
    QCOMPARE(chain->shownUpTo(), -1);
    QCOMPARE(window->pipeline()->chain().size(), 3);
    // Each step has its live thumbnail in the list
    QTRY_VERIFY_WITH_TIMEOUT(!dock->panel()->list()->item(2)->icon().isNull(), 10000);
  }

  // Issue 30: the inspector explains the last step from its actual input (the step before's output), and
  // says which step it explains; it once explained the editor's filter from the original.
  void theInspectorExplainsTheLastStepFromItsInput() {
    QSettings().remove(QStringLiteral("chain"));
    MainWindow window(test::launchOptions(test::dataFile(QStringLiteral("coffee.png"))));
    window.resize(1200, 800);
    window.show();
    ChainDock* dock = window.findChild<ChainDock*>();
    QVERIFY(dock->controller()->append(blur()).isEmpty());
    QVERIFY(dock->controller()->append(sharpen()).isEmpty());
    dock->panel()->onSwitch()->setChecked(true);
    const FilterChain chain = *dock->controller()->chain();
    QVERIFY(waitForChain(window, chain));
    QTRY_VERIFY(window.preview()->frame() &&
                window.preview()->frame()->record.filterRevision == window.pipeline()->filterRevision());
    lab::PixelInspector* inspector = window.lab()->inspector();
    const Image original = *window.preview()->frame()->original;  // a copy: newer frames replace it
    Image blurred(original.width, original.height);
    referenceChain(original.view(), blurred.mutableView(), FilterChain::make({blur()}));
    for (const QPoint pos : {QPoint(0, 0), QPoint(123, 45), QPoint(301, 222), QPoint(599, 399)})
      for (int c = 0; c < 3; ++c) {
        const auto probe = inspector->inspect(pos, c);
        QVERIFY(probe);
        QCOMPARE(probe->step, 2);
        QCOMPARE(probe->input[c], int(blurred.view().row(pos.y())[pos.x() * 3 + c]));
        QVERIFY2(std::abs(probe->expected - probe->output[c]) <= 1,
                 qPrintable(QStringLiteral("%1 vs %2").arg(probe->expected).arg(probe->output[c])));
      }
    // Under a wrap border (it reads the far side) the steps before run on the whole frame instead
    dock->controller()->load(
        FilterChain::make({ChainStep::single(blur().filter.withBorder(BorderMode::Wrap)), sharpen()}));
    QVERIFY(waitForChain(window, *dock->controller()->chain()));
    QTRY_VERIFY(window.preview()->frame()->record.filterRevision == window.pipeline()->filterRevision());
    Image wrapped(original.width, original.height);
    referenceChain(original.view(), wrapped.mutableView(),
                   FilterChain::make({ChainStep::single(blur().filter.withBorder(BorderMode::Wrap))}));
    for (const QPoint pos : {QPoint(0, 0), QPoint(599, 200)}) {
      const auto probe = inspector->inspect(pos, 1);
      QCOMPARE(probe->input[1], int(wrapped.view().row(pos.y())[pos.x() * 3 + 1]));
      QVERIFY(std::abs(probe->expected - probe->output[1]) <= 1);
    }
    PreviewWidget* preview = window.preview();
    const QPointF centre = QRectF(preview->rect()).center();
    QMouseEvent move(QEvent::MouseMove, centre, preview->mapToGlobal(centre), Qt::NoButton, Qt::NoButton,
                     Qt::ShiftModifier);
    QApplication::sendEvent(preview, &move);
    QVERIFY2(inspector->statusText().contains(QStringLiteral("step 2's input")),
             qPrintable(inspector->statusText()));
  }

  // Kernel Source of a running chain shows its fused kernel (it showed the editor's filter's).
  void kernelSourceShowsTheFusedKernelOfAChain() {
    auto frame = std::make_shared<Image>(64, 48);
    lab::KernelSourceDialog dialog([frame] {
      lab::LabInputs in;
      in.frame = frame;
      in.chain = FilterChain::make({blur(), sharpen()});
      in.liveStrategy = StrategyId{"naive"};
      return in;
    });
    QSignalSpy refreshed(&dialog, &lab::KernelSourceDialog::refreshed);
    QVERIFY(dialog.refresh());
    QVERIFY(refreshed.wait(120000));
    QVERIFY2(dialog.sourceText().contains(QStringLiteral("convolve_fused")),
             qPrintable(dialog.detailsText()));
  }

  void thumbnailsShowTheOutputAfterEachStep() {
    Image frame(80, 60);
    for (int y = 0; y < frame.height; ++y)
      for (int x = 0; x < frame.width * kBytesPerPixel; ++x)
        frame.pixels[static_cast<std::size_t>(y) * frame.stride + x] =
            static_cast<uchar>((x * 7 + y * 13) % 251);
    ChainStep off = blur("off");
    off.enabled = false;
    const std::vector<ChainStep> steps{sharpen(), off, blur()};
    const std::vector<QImage> thumbs = StepThumbnails::render(frame, steps);
    QCOMPARE(thumbs.size(), std::size_t{3});
    QCOMPARE(thumbs[0].size(), PresetThumbnails::kSize);
    QVERIFY(thumbs[0] != thumbs[2]);
    QCOMPARE(thumbs[1], thumbs[0]);  // a switched-off step passes its input on
    // The last one is the chain's output, the centre of the sample the chain ran on
    const Image sample = PresetThumbnails::sample(frame, PresetThumbnails::kSize);
    Image out(sample.width, sample.height);
    referenceChain(sample.view(), out.mutableView(), FilterChain::make(steps));
    const QImage whole(out.pixels.data(), out.width, out.height, static_cast<qsizetype>(out.stride),
                       QImage::Format_RGB888);
    const int m = PresetThumbnails::kMargin;
    QCOMPARE(thumbs[2], whole.copy(QRect(m, m, out.width - 2 * m, out.height - 2 * m)));
  }
};

CONVOLAB_GUI_TEST_MAIN(ChainEditingTest)
#include "test_chain_editing.moc"
