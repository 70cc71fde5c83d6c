// tensorstudio's manual page from QCommandLineParser's help text (see man_page.h).
#include "man_page.h"

#include <QRegularExpression>
#include <QStringList>

namespace tstudio {
namespace {

/// Text for groff: backslashes escaped, a line never starting with '.' or '\''.
QString roffText(QString s)
{
    s.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    if (s.startsWith(QLatin1Char('.')) || s.startsWith(QLatin1Char('\'')))
        s.prepend(QStringLiteral("\\&"));
    return s;
}

/// An option's names and value as typed: each '-' a minus sign.
QString roffCode(QString s)
{
    return roffText(std::move(s)).replace(QLatin1Char('-'), QStringLiteral("\\-"));
}

struct HelpEntry {
    QString head; ///< "-h, --help" or "--screenshot <FILE.png>" or "files"
    QString text;
};

/// The entries of one section ("Options:", "Arguments:") of Qt's help layout: an entry starts two
/// spaces in; its description continues on lines indented to the description column.
QList<HelpEntry> entries(const QStringList& lines, const QString& section)
{
    QList<HelpEntry> out;
    const qsizetype start = lines.indexOf(section);
    if (start < 0)
        return out;
    static const QRegularExpression entry(QStringLiteral("^  (\\S(?:.*?\\S)?)(?:\\s{2,}(.*))?$"));
    for (qsizetype i = start + 1; i < lines.size() && !lines[i].isEmpty(); ++i) {
        const QString& line = lines[i];
        if (line.startsWith(QStringLiteral("   ")) && !out.isEmpty()) {
            out.last().text += QLatin1Char(' ') + line.trimmed();
            continue;
        }
        const auto m = entry.match(line);
        if (m.hasMatch())
            out.append({m.captured(1), m.captured(2).trimmed()});
    }
    return out;
}

} // namespace

QString manPageFromHelp(const QString& helpText, const QString& version)
{
    const QStringList lines = helpText.split(QLatin1Char('\n'));
    QString description;
    for (qsizetype i = 1; i < lines.size() && !lines[i].isEmpty(); ++i)
        description += (description.isEmpty() ? QString() : QStringLiteral(" ")) + lines[i].trimmed();

    QString out;
    out += QStringLiteral(".\\\" The manual page of tensorstudio, written by `tensorstudio --man` from its "
                          "command-line options.\n");
    out += QStringLiteral(".TH TENSORSTUDIO 1 \"\" \"%1\" \"TensorStudio\"\n").arg(roffText(version));
    out += QStringLiteral(".SH NAME\ntensorstudio \\- an IDE for TensorFlow 1.x dataflow graphs\n");
    out += QStringLiteral(".SH SYNOPSIS\n.B tensorstudio\n[\\fIOPTIONS\\fR] [\\fIFILES\\fR...]\n");
    out += QStringLiteral(".SH DESCRIPTION\n") + roffText(description) + QLatin1Char('\n');
    out += QStringLiteral(
        ".PP\nOpen the files TensorFlow 1.x writes: GraphDefs (\\fI.pb\\fR, \\fI.pbtxt\\fR), MetaGraphs "
        "(\\fI.meta\\fR), SavedModel folders, checkpoints, event files and log directories "
        "(\\fIevents.out.tfevents.*\\fR), TFRecord files, Chrome traces and TensorStudio projects "
        "(\\fI.tsproj\\fR); compose a network in the node editor, train and evaluate it, watch its curves in "
        "the dashboard, profile it on a timeline and step through its ops in the debugger. Files given on "
        "the command line open in the window, each in the panel its kind calls for.\n");
    out += QStringLiteral(".SH OPTIONS\n");
    for (const HelpEntry& e : entries(lines, QStringLiteral("Options:"))) {
        // "--screenshot <FILE.png>": the names in bold, the value in italics.
        QString head = e.head;
        QString value;
        const qsizetype angle = head.indexOf(QLatin1Char('<'));
        if (angle >= 0) {
            value = head.mid(angle + 1).chopped(1);
            head = head.left(angle).trimmed();
        }
        QStringList names;
        for (const QString& name : head.split(QStringLiteral(", ")))
            names << QStringLiteral("\\fB") + roffCode(name) + QStringLiteral("\\fR");
        out += QStringLiteral(".TP\n") + names.join(QStringLiteral(", "));
        if (!value.isEmpty())
            out += QStringLiteral(" \\fI") + roffCode(value) + QStringLiteral("\\fR");
        out += QLatin1Char('\n') + roffText(e.text) + QLatin1Char('\n');
    }
    const QList<HelpEntry> arguments = entries(lines, QStringLiteral("Arguments:"));
    if (!arguments.isEmpty()) {
        out += QStringLiteral(".SH ARGUMENTS\n");
        for (const HelpEntry& e : arguments)
            out += QStringLiteral(".TP\n\\fI") + roffCode(e.head) + QStringLiteral("\\fR\n") + roffText(e.text) +
                   QLatin1Char('\n');
    }
    out += QStringLiteral(
        ".SH FILES\n.TP\n.I ~/.config/TensorStudio/TensorStudio.conf\nSettings: language, theme, recent files, the "
        "window's layout.\n.TP\n.I /usr/share/tensorstudio/examples\nThe example projects of the welcome page.\n");
    out += QStringLiteral(
        ".SH ENVIRONMENT\n.TP\n.B QT_QPA_PLATFORM\nQt's window system; \\fBoffscreen\\fR renders without a display "
        "(what \\fB\\-\\-screenshot\\fR and the benchmarks use).\n.TP\n.B MALLOC_CONF\njemalloc's options, added to "
        "the program's own.\n.TP\n.B CUDA_VISIBLE_DEVICES\nThe GPUs the engine may use.\n");
    out += QStringLiteral(".SH SEE ALSO\n\\fBtstudio\\fR(1)\n");
    return out;
}

} // namespace tstudio
