// Horizontal volume-by-price histogram of one session, value area shaded, POC marked.
#pragma once

#include "ui/vpoc/profile_geometry.h"

#include <QWidget>

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
    // Share the price chart's axis: levels are drawn at the chart's pixel rows. nullopt: own layout.
    void setPriceFrame(std::optional<PriceFrame> frame);
    const std::optional<PriceFrame>& priceFrame() const { return m_frame; }
    // Where the histogram is drawn (public for the alignment test).
    QRectF plotArea() const;
    static QColor vahColor();
    static QColor valColor();
    static QColor pocColor();
    const ProfileInput& profile() const { return m_profile; }
    QSize sizeHint() const override { return {320, 420}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    ProfileInput m_profile;
    std::optional<PriceFrame> m_frame;
    std::function<QString(int32_t)> m_priceText;
};

} // namespace stackscope::ui
