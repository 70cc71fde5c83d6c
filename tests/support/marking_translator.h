// MarkingTranslator: a translator for tests that marks every text of one context, as an installed .qm would
// translate it, so a test can tell which texts go through that context with which key.
#pragma once

#include <QByteArray>
#include <QString>
#include <QTranslator>

namespace tstudio::testing {

/// Translates every source text of `context` to "[zh] " + the text; other contexts stay untranslated.
/// Install it with QCoreApplication::installTranslator (the object must outlive its installation).
class MarkingTranslator : public QTranslator {
public:
    explicit MarkingTranslator(QByteArray context) : m_context(std::move(context)) {}

    static QString marked(const QString& text) { return QStringLiteral("[zh] ") + text; }

    QString translate(const char* context, const char* sourceText, const char* /*disambiguation*/,
                      int /*n*/) const override
    {
        return m_context == context ? marked(QString::fromUtf8(sourceText)) : QString();
    }
    bool isEmpty() const override { return false; }

private:
    QByteArray m_context;
};

} // namespace tstudio::testing
