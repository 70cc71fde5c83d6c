// tstudio_render_icon IN.svg SIZE OUT.png: the SVG drawn into a SIZE x SIZE PNG with transparency,
// for the hicolor icon theme's fixed sizes (the build makes them from resources/icons/tensorstudio.svg).
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QGuiApplication::arguments();
    bool sizeOk = false;
    const int size = args.size() == 4 ? args[2].toInt(&sizeOk) : 0;
    if (!sizeOk || size < 1 || size > 4096) {
        std::fprintf(stderr, "usage: tstudio_render_icon IN.svg SIZE OUT.png (SIZE 1 to 4096)\n");
        return 2;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        std::fprintf(stderr, "tstudio_render_icon: %s is not an SVG image Qt can draw\n", qPrintable(args[1]));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter, QRectF(0, 0, size, size));
    painter.end();
    QSaveFile file(args[3]);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        std::fprintf(stderr, "tstudio_render_icon: cannot write %s: %s\n", qPrintable(args[3]), qPrintable(file.errorString()));
        return 1;
    }
    return 0;
}
