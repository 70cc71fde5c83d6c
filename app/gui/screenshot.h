// Screenshot mode: open files, show a panel, render the window (or a dialog) to a PNG, and exit.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace tstudio {

class MainWindow;

struct ScreenshotRequest {
    QString outputFile;
    QString panel;       ///< a dock name, "start", "document", "settings" or "about"; empty = as is
    QStringList files;
    bool openExample = false;
    QSize size{1280, 800};
    /// Graph panel: name scopes to expand (hierarchy paths such as "layer1"), a colour mode id
    /// (structure, device, placed, time, memory, runnable), a node to select, a search to run.
    QStringList expand;
    QString colourBy;
    QString select;
    QString find;
    bool leftToRight = false;
    /// Editor panel: open the Evaluate dialog on the selected node, run it, and capture the dialog.
    bool evaluate = false;
    /// Editor panel: show Edit ▸ Import Graph… for this file and capture the dialog.
    QString importGraph;
    /// Training panel: train the open project to this step first (0: do not train).
    int trainSteps = 0;
    /// Training panel with trainSteps: capture while the run is going, once it has passed this step
    /// (the followed dashboard on `dashboardTab`), then stop the run (0: capture after the run).
    int captureStep = 0;
    /// Training panel: capture the "Run on N processes…" dialog (with `processes` set when > 0).
    bool distributedDialog = false;
    /// Training panel with trainSteps: train on this many processes under mpirun (the panel's "Run on
    /// N processes…", on this machine) instead of in this process (0: in this process).
    int processes = 0;
    /// Training and profiler panels: the MNIST folder for a project whose Dataset node needs one.
    QString dataDir;
    /// Dashboard panel: the tab to show (scalars, images, graphs, distributions, histograms, text, audio);
    /// records panel: features or statistics (and `select` the record number to show).
    QString dashboardTab;
    /// Dashboard panel: view settings (ema:W, mean:N, envelope, pin:TAG, enlarge:TAG, link-images,
    /// perplexity:N, tsne, search:PATTERN, point:N).
    QString dashboardView;
};

/// Names accepted by ScreenshotRequest::panel for `window`.
QStringList screenshotPanelNames(const MainWindow& window);

/// Runs the request; returns the process exit code (0 on success) and prints errors to stderr.
int takeScreenshot(MainWindow& window, const ScreenshotRequest& request);

} // namespace tstudio
