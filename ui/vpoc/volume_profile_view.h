// Horizontal volume-by-price histogram of one session, value area shaded, POC marked.
#pragma once

#include "ui/vpoc/chart_legend.h"
#include "ui/vpoc/profile_geometry.h"

#include <QWidget>

class QPainter;

#include <functional>
#include <optional>
#include <string>

namespace stackscope::ui {

class VolumeProfileView : public QWidget {
    Q_OBJECT
public:
    explicit VolumeProfileView(QWidget* parent = nullptr);

    // `priceText` formats a tick as a price ("5123.25").
    void setProfile(ProfileInput profile, std::function<QString(int32_t)> priceText);
    void clear();
    // What the empty view says ("Select a session" until set).
    void setEmptyText(const QString& text);
    // What the view says while it has no profile.
    QString emptyText() const;
    // Share the price chart's axis: levels are drawn at the chart's pixel rows. nullopt: own layout.
    void setPriceFrame(std::optional<PriceFrame> frame);
    const std::optional<PriceFrame>& priceFrame() const { return m_frame; }
    // Where the histogram is drawn (public for the alignment test).
    QRectF plotArea() const;
    static QColor vahColor();
    static QColor valColor();
    static QColor pocColor();
    // Value area, POC and outside in their colours, for the ChartLegend under the view.
    static QList<LegendEntry> legendEntries();
    const ProfileInput& profile() const { return m_profile; }
    QSize sizeHint() const override { return {320, 420}; }
    // The volume scale's step as last drawn (tests); 0 before a profile is drawn. The bars are drawn against the
    // scale's top (a round number at or above the largest level), so the scale always reads 0 to that top.
    uint64_t scaleStep() const { return m_scaleStep; }
    // The volume scale's labelled values as last drawn, 0 first (tests); empty before a profile is drawn.
    const QList<uint64_t>& scaleValues() const { return m_scaleValues; }
    // "25k", "1.5M", "800": the scale's labels.
    static QString volumeText(uint64_t volume);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    // The scale's round step and top for the width of `area`.
    VolumeTicks scaleFor(const QFontMetrics& fm, const QRectF& area) const;
    void drawVolumeScale(QPainter& p, const QRectF& area, const VolumeTicks& ticks) const;

    ProfileInput m_profile;
    std::optional<PriceFrame> m_frame;
    std::function<QString(int32_t)> m_priceText;
    QString m_emptyText;
    mutable uint64_t m_scaleStep = 0;
    mutable QList<uint64_t> m_scaleValues;
};

} // namespace stackscope::ui
